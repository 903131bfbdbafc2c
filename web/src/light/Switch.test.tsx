// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { Switch } from './Switch'

function Controlled({ onChange }: { onChange: (v: boolean) => void }) {
  const [on, setOn] = useState(false)
  return (
    <Switch
      checked={on}
      onChange={(v) => {
        setOn(v)
        onChange(v)
      }}
    >
      Archived
    </Switch>
  )
}

describe('Switch', () => {
  it('is a switch named by its label, turned by a click on it or on the text', async () => {
    const onChange = vi.fn()
    const { container } = render(<Controlled onChange={onChange} />)
    const sw = screen.getByRole('switch', { name: 'Archived' }) as HTMLInputElement
    expect(sw.type).toBe('checkbox')
    expect(sw.checked).toBe(false)
    fireEvent.click(sw)
    expect(sw.checked).toBe(true)
    expect(onChange).toHaveBeenLastCalledWith(true)
    fireEvent.click(screen.getByText('Archived'))
    expect(sw.checked).toBe(false)
    expect(onChange).toHaveBeenLastCalledWith(false)
    expect(await axeViolations(container)).toEqual([])
  })

  it('is disabled when told (a browser then ignores clicks on it)', () => {
    render(
      <Switch checked={false} disabled onChange={() => {}}>
        Archived
      </Switch>,
    )
    expect(screen.getByRole('switch', { name: 'Archived' })).toHaveProperty('disabled', true)
  })
})
