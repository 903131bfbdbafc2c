// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import dayjs from 'dayjs'
import i18n, { initI18n, setLanguage } from '../lib/i18n'
import { axeViolations } from '../test/axe'
import { DateInput, readDate, shownDate } from './DateInput'
import { FOCUSABLE } from './modal'

beforeAll(() => initI18n('en'))
// jsdom has no showPicker: each test says whether the browser has it (most: a browser that has).
const hasShowPicker = (has: boolean) => {
  if (has) Object.defineProperty(HTMLInputElement.prototype, 'showPicker', { configurable: true, writable: true, value: vi.fn() })
  else delete (HTMLInputElement.prototype as Partial<HTMLInputElement>).showPicker
}
beforeEach(async () => {
  await i18n.changeLanguage('en')
  hasShowPicker(true)
})
afterEach(() => hasShowPicker(false))

function Day({ week, onChange, start = '2026-11-25', min, clearable }: { week?: boolean; onChange?: (d: string) => void; start?: string; min?: string; clearable?: boolean }) {
  const [day, setDay] = useState(start)
  return (
    <>
      <DateInput
        aria-label="Date"
        value={day}
        week={week}
        min={min}
        clearable={clearable}
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
    fireEvent.input(field(), { target: { value: '3.12.2026' } })
    expect(screen.getByRole('status').textContent).toBe('2026-11-25') // not yet: typing is not taken
    fireEvent.keyDown(field(), { key: 'Enter' })
    expect(screen.getByRole('status').textContent).toBe('2026-12-03')
    expect(field().value).toBe('03.12.2026')
  })

  it('takes a date typed in Vietnamese as the field is left', async () => {
    await i18n.changeLanguage('vi')
    render(<Day />)
    expect(field().value).toBe('25/11/2026')
    fireEvent.input(field(), { target: { value: '07/01/2027' } })
    fireEvent.blur(field())
    expect(screen.getByRole('status').textContent).toBe('2027-01-07')
    expect(field().value).toBe('07/01/2027')
  })

  it('marks a date it cannot read invalid, keeps the day it had and says how to type one, until Escape shows that day again', async () => {
    const changed = vi.fn()
    const { container } = render(<Day onChange={changed} />)
    const hint = () => document.getElementById(field().getAttribute('aria-describedby') ?? '')
    // The live region is there before the message, so that it is heard as it comes.
    const live = container.querySelector('[aria-live="polite"]')!
    expect(live.textContent).toBe('')
    expect(field().getAttribute('aria-describedby')).toBeNull()
    fireEvent.input(field(), { target: { value: '31.02.2026' } })
    fireEvent.keyDown(field(), { key: 'Enter' })
    expect(field().getAttribute('aria-invalid')).toBe('true')
    expect(changed).not.toHaveBeenCalled()
    expect(screen.getByRole('status').textContent).toBe('2026-11-25')
    const example = dayjs().format('YYYY-MM-DD')
    expect(hint()).toBe(live)
    expect(live.textContent).toBe(`Type the date as YYYY-MM-DD, for example ${example}.`)
    expect(await axeViolations(container)).toEqual([])
    // Still said while it is typed again, until a date is taken.
    fireEvent.input(field(), { target: { value: '2026-02-3' } })
    expect(live.textContent).not.toBe('')
    fireEvent.keyDown(field(), { key: 'Escape' })
    expect(field().value).toBe('2026-11-25')
    expect(field().getAttribute('aria-invalid')).toBeNull()
    expect(field().getAttribute('aria-describedby')).toBeNull()
    expect(live.textContent).toBe('')
  })

  it('says the language’s way in the message, and clears it when a readable date is taken', async () => {
    await setLanguage('ru')
    const { container } = render(<Day />)
    const live = container.querySelector('[aria-live="polite"]')!
    fireEvent.input(field(), { target: { value: '32.12.2026' } })
    fireEvent.blur(field())
    expect(live.textContent).toBe(`Укажите дату в формате ДД.ММ.ГГГГ, например ${dayjs().format('DD.MM.YYYY')}.`)
    fireEvent.input(field(), { target: { value: '03.12.2026' } })
    fireEvent.keyDown(field(), { key: 'Enter' })
    expect(screen.getByRole('status').textContent).toBe('2026-12-03')
    expect(live.textContent).toBe('')
    expect(field().getAttribute('aria-invalid')).toBeNull()
  })

  it('shows a week as its Monday – Sunday and takes a day picked as its week’s Monday', () => {
    render(<Day week />)
    expect(field().value).toBe('2026-11-23 – 2026-11-29')
    const picker = document.querySelector<HTMLInputElement>('input[type=date]')!
    fireEvent.click(screen.getByRole('button', { name: 'Open the calendar' }))
    fireEvent.input(picker, { target: { value: '2026-12-10' } })
    expect(screen.getByRole('status').textContent).toBe('2026-12-07')
    expect(field().value).toBe('2026-12-07 – 2026-12-13')
    expect(picker.disabled).toBe(true)
  })

  it('opens the browser’s picker from its button; its unseen input is never reached by Tab, nor counted by a dialog’s loop', () => {
    const { container } = render(<Day />)
    const picker = document.querySelector<HTMLInputElement>('input[type=date]')!
    expect(picker.tabIndex).toBe(-1)
    expect([...container.querySelectorAll(FOCUSABLE)]).toEqual([field(), screen.getByRole('button', { name: 'Open the calendar' })])
    // Enabled only to open (a disabled input's picker does not), then disabled again as it closes.
    let enabledWhenShown: boolean | undefined
    const show = vi.fn(function (this: HTMLInputElement) {
      enabledWhenShown = !this.disabled
    })
    picker.showPicker = show
    fireEvent.click(screen.getByRole('button', { name: 'Open the calendar' }))
    expect(show).toHaveBeenCalled()
    expect(enabledWhenShown).toBe(true)
    fireEvent(picker, new Event('cancel'))
    expect(picker.disabled).toBe(true)
    // Refused (no user activation): nothing opens, focus stays, the input is disabled again.
    picker.showPicker = () => {
      throw new Error('not allowed')
    }
    const button = screen.getByRole('button', { name: 'Open the calendar' })
    button.focus()
    fireEvent.click(button)
    expect(document.activeElement).toBe(button)
    expect(picker.disabled).toBe(true)
  })

  it('has no calendar button where the browser cannot open its picker from a script', async () => {
    hasShowPicker(false)
    const { container } = render(<Day />)
    expect(screen.queryByRole('button', { name: 'Open the calendar' })).toBeNull()
    expect(container.querySelector('input[type=date]')).toBeNull()
    expect(await axeViolations(container)).toEqual([])
  })

  it('reads each language’s ways', () => {
    expect(readDate('29.11.2026', 'ru')).toBe('2026-11-29')
    expect(readDate('29/11/2026', 'vi')).toBe('2026-11-29')
    expect(readDate('2026年11月29日', 'zh')).toBe('2026-11-29')
    expect(readDate('11/29/2026', 'en')).toBeUndefined()
    expect(shownDate('2026-11-29', true, 'ru')).toBe('23.11.2026 – 29.11.2026')
  })

  it('may be emptied when clearable: an empty field gives no day, and shows none', () => {
    const got: string[] = []
    render(<Day clearable start="" onChange={(d) => got.push(d)} />)
    expect(field().value).toBe('')
    fireEvent.input(field(), { target: { value: '2026-12-03' } })
    fireEvent.blur(field())
    fireEvent.input(field(), { target: { value: '' } })
    fireEvent.blur(field())
    expect(got).toEqual(['2026-12-03', ''])
    expect(field().value).toBe('')
    expect(field().getAttribute('aria-invalid')).toBeNull()
  })

  it('does not take a day before min, typed or offered: it says the first day it takes, and Escape gives back the day it had', () => {
    const got: string[] = []
    const { container } = render(<Day min="2026-11-26" start="2026-11-27" onChange={(d) => got.push(d)} />)
    expect(container.querySelector('input[type=date]')!.getAttribute('min')).toBe('2026-11-26')
    fireEvent.input(field(), { target: { value: '2026-11-25' } })
    fireEvent.keyDown(field(), { key: 'Enter' })
    expect(got).toEqual([])
    expect(field().getAttribute('aria-invalid')).toBe('true')
    const message = document.getElementById(field().getAttribute('aria-describedby')!.split(' ').pop()!)!
    expect(message.textContent).toBe('Choose 2026-11-26 or a later day.')
    fireEvent.keyDown(field(), { key: 'Escape' })
    expect(field().value).toBe('2026-11-27')
    expect(field().getAttribute('aria-invalid')).toBeNull()
    fireEvent.input(field(), { target: { value: '2026-11-26' } })
    fireEvent.keyDown(field(), { key: 'Enter' })
    expect(got).toEqual(['2026-11-26'])
  })
})

describe('DateInput max', () => {
  function Last({ initial }: { initial: string }) {
    const [day, setDay] = useState(initial)
    return (
      <>
        <DateInput aria-label="Date" value={day} clearable max="2026-11-30" onChange={setDay} />
        <output>{day}</output>
      </>
    )
  }

  it('its calendar ends at max; a later day typed is refused with the last day named, an earlier one taken', () => {
    render(<Last initial="" />)
    expect(document.querySelector<HTMLInputElement>('input[type=date]')!.max).toBe('2026-11-30')
    fireEvent.input(field(), { target: { value: '2026-12-01' } })
    fireEvent.blur(field())
    expect(screen.getByRole('status').textContent).toBe('')
    // Left, it shows the day it holds (none), and says why the one typed was not taken (a pharmacist's review).
    expect(field().value).toBe('')
    expect(field().getAttribute('aria-invalid')).toBe('true')
    expect(document.getElementById(field().getAttribute('aria-describedby')!.split(' ').pop()!)!.textContent).toBe('Choose 2026-11-30 or an earlier day.')
    fireEvent.input(field(), { target: { value: '2026-11-28' } })
    fireEvent.blur(field())
    expect(screen.getByRole('status').textContent).toBe('2026-11-28')
    expect(field().getAttribute('aria-invalid')).toBeNull()
  })

  it('keeps Enter from sending a dialog’s form when the day typed is refused, and lets it go when taken (an accessibility review)', () => {
    render(<Last initial="" />)
    for (const refused of ['2099-01-01', '31.31.2026']) {
      fireEvent.input(field(), { target: { value: refused } })
      // fireEvent answers false when the event's default was prevented.
      expect(fireEvent.keyDown(field(), { key: 'Enter' })).toBe(false)
      expect(field().getAttribute('aria-invalid')).toBe('true')
    }
    fireEvent.input(field(), { target: { value: '2026-11-29' } })
    expect(fireEvent.keyDown(field(), { key: 'Enter' })).toBe(true)
    expect(screen.getByRole('status').textContent).toBe('2026-11-29')
  })
})
