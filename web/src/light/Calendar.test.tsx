// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import dayjs from 'dayjs'
import 'dayjs/locale/ru'
import 'dayjs/locale/vi'
import 'dayjs/locale/zh-cn'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { initI18n } from '../lib/i18n'
import { axeViolations } from '../test/axe'
import { cssRule, readSheet } from '../test/css'
import { Calendar } from './Calendar'

const css = readSheet('light/Calendar.module.css')

beforeAll(() => initI18n('en'))
afterEach(() => {
  cleanup()
  dayjs.locale('en')
})

const draw = (props: Partial<Parameters<typeof Calendar>[0]> = {}) =>
  render(<Calendar defaultValue="2026-11-30" prevLabel="Previous month" nextLabel="Next month" {...props} />)
const focusedDay = () => document.activeElement as HTMLElement
const key = (k: string, shiftKey = false) => fireEvent.keyDown(focusedDay(), { key: k, shiftKey })

describe('Calendar', () => {
  it('is a grid of six weeks named by its month, weekdays from Sunday in English, the chosen day selected', async () => {
    const { container } = draw()
    const grid = screen.getByRole('grid', { name: 'November 2026' })
    const heads = within(grid).getAllByRole('columnheader')
    expect(heads.map((h) => h.textContent)).toEqual(['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'])
    expect(heads[0].getAttribute('abbr')).toBe('Sunday')
    expect(within(grid).getAllByRole('row')).toHaveLength(7)
    const chosen = within(grid).getByRole('gridcell', { selected: true })
    expect(chosen.textContent).toBe('30')
    expect(chosen.tabIndex).toBe(0)
    // Only one day takes Tab.
    expect(container.querySelectorAll('td[tabindex="0"]')).toHaveLength(1)
    expect(await axeViolations(container)).toEqual([])
  })

  it('starts the week on Monday in Russian, with Russian names', () => {
    dayjs.locale('ru')
    draw()
    expect(screen.getAllByRole('columnheader')[0].textContent).toBe('пн')
    expect(screen.getByTestId('calendar-month').textContent).toBe('ноябрь 2026 г.')
  })

  it('moves the focused day by the keys, into the next month, and chooses it with Enter', () => {
    const onSelect = vi.fn()
    draw({ onSelect })
    screen.getByRole('gridcell', { selected: true }).focus()
    key('ArrowRight') // 1 December
    expect(screen.getByRole('grid', { name: 'December 2026' })).toBeTruthy()
    expect(focusedDay().textContent).toBe('1')
    key('ArrowDown')
    expect(focusedDay().textContent).toBe('8')
    key('Home') // Sunday 6 December
    expect(focusedDay().textContent).toBe('6')
    key('End')
    expect(focusedDay().textContent).toBe('12')
    key('ArrowUp')
    key('ArrowLeft')
    expect(focusedDay().textContent).toBe('4')
    key('PageDown')
    expect(screen.getByRole('grid', { name: 'January 2027' })).toBeTruthy()
    key('PageUp', true)
    expect(screen.getByRole('grid', { name: 'January 2026' })).toBeTruthy()
    key('Enter')
    expect(onSelect).toHaveBeenCalledWith('2026-01-04')
    expect(screen.getByRole('gridcell', { selected: true })).toBe(focusedDay())
  })

  it('turns the month by its buttons, and chooses a day by a click, a day of the next month too', () => {
    const onSelect = vi.fn()
    draw({ onSelect, cell: (day) => (day === '2026-12-02' ? <span>3 visits</span> : null) })
    fireEvent.click(screen.getByRole('button', { name: 'Next month' }))
    expect(screen.getByTestId('calendar-month').textContent).toBe('December 2026')
    fireEvent.click(screen.getByRole('button', { name: 'Previous month' }))
    fireEvent.click(screen.getByRole('button', { name: 'Previous month' }))
    expect(screen.getByTestId('calendar-month').textContent).toBe('October 2026')
    fireEvent.click(screen.getByRole('button', { name: 'Next month' }))
    // A day's content, drawn by the caller, under its number; a day after the month is shown too.
    const second = screen.getByRole('gridcell', { name: /3 visits/ })
    expect(second.firstElementChild?.textContent).toBe('2')
    fireEvent.click(second)
    expect(onSelect).toHaveBeenCalledWith('2026-12-02')
    expect(screen.getByTestId('calendar-month').textContent).toBe('December 2026')
    expect(screen.getByRole('gridcell', { selected: true }).textContent).toBe('23 visits')
  })

  it('names the month in each language’s own order', () => {
    for (const [locale, title] of [
      ['zh-cn', '2026年11月'],
      ['vi', 'tháng 11 năm 2026'],
    ]) {
      dayjs.locale(locale)
      draw()
      expect(screen.getByRole('grid', { name: title })).toBeTruthy()
      cleanup()
    }
  })

  it('outlines the focused day, and marks the days outside the month by more than their colour', () => {
    draw()
    const grid = screen.getByRole('grid')
    // 1 December, after November's last week.
    const outside = within(grid).getAllByRole('gridcell').at(-1)!
    expect(outside.className).toContain('outside')
    expect(within(grid).getByRole('gridcell', { selected: true }).className).not.toContain('outside')
    expect(cssRule(css, '.outside .number')).toMatch(/text-decoration: underline dotted/)
    expect(cssRule(css, '.day:focus-visible')).toMatch(/outline: 2px solid #1656c7/)
  })
})
