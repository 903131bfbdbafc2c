// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import i18n, { initI18n } from '../lib/i18n'
import { axeViolations } from '../test/axe'
import { DateInput, readDate, shownDate } from './DateInput'

beforeAll(() => initI18n('en'))
beforeEach(() => i18n.changeLanguage('en'))

function Day({ week, onChange }: { week?: boolean; onChange?: (d: string) => void }) {
  const [day, setDay] = useState('2026-11-25')
  return (
    <>
      <DateInput
        aria-label="Date"
        value={day}
        week={week}
        onChange={(d) => {
          setDay(d)
          onChange?.(d)
        }}
      />
      <output>{day}</output>
    </>
  )
}

const field = () => screen.getByRole('textbox', { name: 'Date' }) as HTMLInputElement

describe('DateInput', () => {
  it('shows the day in the language’s format, with a named calendar button, and no axe findings', async () => {
    const { container } = render(<Day />)
    expect(field().value).toBe('2026-11-25')
    expect(field().placeholder).toBe('YYYY-MM-DD')
    expect(screen.getByRole('button', { name: 'Open the calendar' })).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })

  it('takes a date typed in Russian on Enter', async () => {
    await i18n.changeLanguage('ru')
    render(<Day />)
    expect(field().value).toBe('25.11.2026')
    fireEvent.change(field(), { target: { value: '3.12.2026' } })
    expect(screen.getByRole('status').textContent).toBe('2026-11-25') // not yet: typing is not taken
    fireEvent.keyDown(field(), { key: 'Enter' })
    expect(screen.getByRole('status').textContent).toBe('2026-12-03')
    expect(field().value).toBe('03.12.2026')
  })

  it('takes a date typed in Vietnamese as the field is left', async () => {
    await i18n.changeLanguage('vi')
    render(<Day />)
    expect(field().value).toBe('25/11/2026')
    fireEvent.change(field(), { target: { value: '07/01/2027' } })
    fireEvent.blur(field())
    expect(screen.getByRole('status').textContent).toBe('2027-01-07')
    expect(field().value).toBe('07/01/2027')
  })

  it('marks a date it cannot read invalid and keeps the day it had; Escape shows that day again', () => {
    const changed = vi.fn()
    render(<Day onChange={changed} />)
    fireEvent.change(field(), { target: { value: '31.02.2026' } })
    fireEvent.keyDown(field(), { key: 'Enter' })
    expect(field().getAttribute('aria-invalid')).toBe('true')
    expect(changed).not.toHaveBeenCalled()
    expect(screen.getByRole('status').textContent).toBe('2026-11-25')
    fireEvent.keyDown(field(), { key: 'Escape' })
    expect(field().value).toBe('2026-11-25')
    expect(field().getAttribute('aria-invalid')).toBeNull()
  })

  it('shows a week as its Monday – Sunday and takes a day picked as its week’s Monday', () => {
    render(<Day week />)
    expect(field().value).toBe('2026-11-23 – 2026-11-29')
    const picker = document.querySelector<HTMLInputElement>('input[type=date]')!
    expect(picker.tabIndex).toBe(-1)
    fireEvent.change(picker, { target: { value: '2026-12-10' } })
    expect(screen.getByRole('status').textContent).toBe('2026-12-07')
    expect(field().value).toBe('2026-12-07 – 2026-12-13')
  })

  it('opens the browser’s picker from its button, or focuses it where there is no showPicker', () => {
    render(<Day />)
    const picker = document.querySelector<HTMLInputElement>('input[type=date]')!
    const show = vi.fn()
    picker.showPicker = show
    fireEvent.click(screen.getByRole('button', { name: 'Open the calendar' }))
    expect(show).toHaveBeenCalled()
    picker.showPicker = () => {
      throw new Error('not supported')
    }
    fireEvent.click(screen.getByRole('button', { name: 'Open the calendar' }))
    expect(document.activeElement).toBe(picker)
  })

  it('reads each language’s ways', () => {
    expect(readDate('29.11.2026', 'ru')).toBe('2026-11-29')
    expect(readDate('29/11/2026', 'vi')).toBe('2026-11-29')
    expect(readDate('2026年11月29日', 'zh')).toBe('2026-11-29')
    expect(readDate('11/29/2026', 'en')).toBeUndefined()
    expect(shownDate('2026-11-29', true, 'ru')).toBe('23.11.2026 – 29.11.2026')
  })
})
