// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { cssRule, readSheet } from '../test/css'
import { Segmented } from './Segmented'

const css = readSheet('light/Segmented.module.css')
const rule = (selector: string) => cssRule(css, selector)

function View({ layout }: { layout?: 'buttons' | 'list' }) {
  const [view, setView] = useState<'queue' | 'week' | 'month'>('queue')
  return (
    <>
      <Segmented
        label="View"
        layout={layout}
        value={view}
        onChange={setView}
        options={[
          { value: 'queue', label: 'Day queue' },
          { value: 'week', label: 'Week' },
          { value: 'month', label: 'Month' },
        ]}
      />
      <output>{view}</output>
    </>
  )
}

describe('Segmented', () => {
  it('is a named radio group of native radios, the chosen one checked', async () => {
    const { container } = render(<View />)
    expect(screen.getByRole('radiogroup', { name: 'View' })).toBeTruthy()
    expect((screen.getByRole('radio', { name: 'Day queue' }) as HTMLInputElement).checked).toBe(true)
    expect((screen.getByRole('radio', { name: 'Week' }) as HTMLInputElement).checked).toBe(false)
    expect(await axeViolations(container)).toEqual([])
  })

  it('chooses an option clicked', () => {
    render(<View />)
    fireEvent.click(screen.getByRole('radio', { name: 'Week' }))
    expect(screen.getByRole('status').textContent).toBe('week')
    expect((screen.getByRole('radio', { name: 'Week' }) as HTMLInputElement).checked).toBe(true)
  })

  it('moves and chooses with the arrow keys (round from the ends), Home and End', () => {
    render(<View />)
    const first = screen.getByRole('radio', { name: 'Day queue' })
    first.focus()
    fireEvent.keyDown(first, { key: 'ArrowRight' })
    expect(screen.getByRole('status').textContent).toBe('week')
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Week' }))
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    expect(screen.getByRole('status').textContent).toBe('month')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })
    expect(screen.getByRole('status').textContent).toBe('queue')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' })
    expect(screen.getByRole('status').textContent).toBe('month')
    fireEvent.keyDown(document.activeElement!, { key: 'Home' })
    expect(screen.getByRole('status').textContent).toBe('queue')
    fireEvent.keyDown(document.activeElement!, { key: 'End' })
    expect(screen.getByRole('status').textContent).toBe('month')
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Month' }))
  })

  it('as a list: the same group, one radio under another, still without axe findings', async () => {
    const { container } = render(<View layout="list" />)
    fireEvent.keyDown(screen.getByRole('radio', { name: 'Day queue' }), { key: 'ArrowUp' })
    expect((screen.getByRole('radio', { name: 'Month' }) as HTMLInputElement).checked).toBe(true)
    expect(await axeViolations(container)).toEqual([])
  })

  it('draws the chosen option with an edge, not white on the grey track alone, an edge in forced colours too, and no option under 24 px', () => {
    render(<View />)
    expect(screen.getByRole('radio', { name: 'Day queue' }).closest('label')!.className).toContain('checked')
    expect(rule('.buttons .checked')).toMatch(/box-shadow:\s*inset 0 0 0 1px #8c8c8c/)
    expect(css).toMatch(/@media \(forced-colors: active\)\s*\{\s*\.buttons \.checked\s*\{\s*outline: 2px solid Highlight/)
    const small = rule(":global([data-emr-size='mini']) .buttons .option")
    expect(small).toMatch(/min-height: 24px/)
    for (const size of css.matchAll(/min-height: (\d+)px/g)) expect(Number(size[1])).toBeGreaterThanOrEqual(24)
  })
})
