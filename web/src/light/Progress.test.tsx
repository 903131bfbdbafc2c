// @vitest-environment jsdom
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { Progress } from './Progress'

describe('Progress', () => {
  it('is a named progress bar holding the percent, kept within 0–100, the shown percent hidden from screen readers', async () => {
    const { container, rerender } = render(<Progress percent={42.4} label="Import" />)
    const bar = screen.getByRole('progressbar', { name: 'Import' })
    expect(bar.getAttribute('value')).toBe('42')
    expect(container.textContent).toBe('42%')
    expect(container.querySelector('[aria-hidden]')?.textContent).toBe('42%')
    expect(await axeViolations(container)).toEqual([])
    rerender(<Progress percent={140} label="Import" />)
    expect(screen.getByRole('progressbar').getAttribute('value')).toBe('100')
  })
})
