// A light month calendar, drawn as Ant Design's small calendar: the month and year between
// previous and next buttons (in the language's order: "November 2026", "2026年11月"), then the
// month as a grid of six weeks (the days before and after it dimmed and underlined dotted, not
// told by colour alone), today ringed, the chosen day filled in the clinic's colour and the
// focused day outlined. It is the date grid of
// the ARIA practices: a table with role grid named by the month, weekday names in the interface
// language (dayjs's locale, which the shell sets) from that language's first day of the week;
// one day takes Tab, the arrow keys move a day or a week, Home and End to the week's ends, Page
// Up and Page Down a month (with Shift a year), Enter or Space chooses the day. Days are
// 'YYYY-MM-DD' strings; cell(day) draws what a day holds under its number.
import dayjs from 'dayjs'
import { memo, useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { IconButton } from './IconButton'
import { LeftIcon, RightIcon } from './icons'
import styles from './Calendar.module.css'

const DAY = 'YYYY-MM-DD'

export interface CalendarProps {
  /** The chosen day, when the caller holds it; otherwise the calendar does, from defaultValue. */
  value?: string
  /** The day chosen at first (today when absent). */
  defaultValue?: string
  /** A day chosen: clicked, or Enter or Space on it. */
  onSelect?: (day: string) => void
  /** What a day holds, under its number. */
  cell?: (day: string) => ReactNode
  /** The buttons' names ("Previous month", "Next month"). */
  prevLabel: string
  nextLabel: string
}

/** The language's week: its first day (0 Sunday) and the weekday names, short and whole, from that day. */
function week() {
  const locale = dayjs.Ls[dayjs.locale()] ?? dayjs.Ls.en
  const start = locale.weekStart ?? 0
  const whole = locale.weekdays ?? dayjs.Ls.en.weekdays ?? []
  const short = locale.weekdaysMin ?? whole.map((w) => w.slice(0, 2))
  const order = Array.from({ length: 7 }, (_, i) => (start + i) % 7)
  return { start, days: order.map((d) => ({ short: short[d], whole: whole[d] })) }
}

/** The 42 days of the six weeks shown for the month of day, from the week's first day. */
function monthDays(day: string, start: number) {
  const first = dayjs(day).startOf('month')
  const from = first.subtract((first.day() - start + 7) % 7, 'day')
  return Array.from({ length: 42 }, (_, i) => from.add(i, 'day').format(DAY))
}

/** The month and year of day in the language's own order and words (Intl's, not a fixed pattern). */
export const monthTitle = (day: string, lang: string) => {
  const d = dayjs(day)
  return new Intl.DateTimeFormat(lang, { month: 'long', year: 'numeric' }).format(new Date(d.year(), d.month(), 1))
}

export const Calendar = memo(function Calendar({ value, defaultValue, onSelect, cell, prevLabel, nextLabel }: CalendarProps) {
  // The language's month and weekday names: re-drawn when the language changes.
  useTranslation()
  const today = dayjs().format(DAY)
  const [own, setOwn] = useState(defaultValue ?? today)
  const chosen = value ?? own
  // The day that takes Tab (and focus, moved by the keys): the month shown is its month.
  const [focused, setFocused] = useState(chosen)
  const moved = useRef(false)
  const grid = useRef<HTMLTableElement>(null)
  const labelId = useId()
  const { start, days: weekdays } = week()
  const shown = dayjs(focused)
  const days = monthDays(focused, start)
  const weeks = Array.from({ length: 6 }, (_, i) => days.slice(i * 7, i * 7 + 7))

  useEffect(() => {
    if (!moved.current) return
    moved.current = false
    grid.current?.querySelector<HTMLElement>('[tabindex="0"]')?.focus()
  }, [focused])

  const choose = (day: string) => {
    setFocused(day)
    setOwn(day)
    onSelect?.(day)
  }
  const onKeyDown = (e: KeyboardEvent) => {
    const d = dayjs(focused)
    const intoWeek = (d.day() - start + 7) % 7
    const next: Record<string, () => dayjs.Dayjs> = {
      ArrowLeft: () => d.subtract(1, 'day'),
      ArrowRight: () => d.add(1, 'day'),
      ArrowUp: () => d.subtract(7, 'day'),
      ArrowDown: () => d.add(7, 'day'),
      Home: () => d.subtract(intoWeek, 'day'),
      End: () => d.add(6 - intoWeek, 'day'),
      PageUp: () => d.subtract(1, e.shiftKey ? 'year' : 'month'),
      PageDown: () => d.add(1, e.shiftKey ? 'year' : 'month'),
    }
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault()
      choose(focused)
    } else if (next[e.key]) {
      e.preventDefault()
      moved.current = true
      setFocused(next[e.key]().format(DAY))
    }
  }

  return (
    <div className={styles.calendar}>
      <div className={styles.header}>
        <IconButton label={prevLabel} tooltip={false} onClick={() => setFocused(shown.subtract(1, 'month').format(DAY))}>
          <LeftIcon />
        </IconButton>
        {/* data-testid: the end-to-end tests read the month's name in the interface language. */}
        <strong id={labelId} className={styles.month} aria-live="polite" data-testid="calendar-month">
          {monthTitle(focused, dayjs.locale())}
        </strong>
        <IconButton label={nextLabel} tooltip={false} onClick={() => setFocused(shown.add(1, 'month').format(DAY))}>
          <RightIcon />
        </IconButton>
      </div>
      <div className={styles.body}>
        <table ref={grid} role="grid" aria-labelledby={labelId} className={styles.grid} onKeyDown={onKeyDown}>
          <thead>
            <tr>
              {weekdays.map((w) => (
                <th key={w.whole} scope="col" abbr={w.whole}>
                  {w.short}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {weeks.map((days) => (
              <tr key={days[0]}>
                {days.map((day) => {
                  const inMonth = dayjs(day).isSame(shown, 'month')
                  const classes = [styles.day, inMonth ? '' : styles.outside, day === today ? styles.today : '', day === chosen ? styles.chosen : '']
                  return (
                    <td
                      key={day}
                      role="gridcell"
                      className={classes.filter(Boolean).join(' ')}
                      tabIndex={day === focused ? 0 : -1}
                      aria-selected={day === chosen}
                      aria-current={day === today ? 'date' : undefined}
                      onClick={() => choose(day)}
                    >
                      <span className={styles.number}>{dayjs(day).date()}</span>
                      {cell?.(day)}
                    </td>
                  )
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  )
})
