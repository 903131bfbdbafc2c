// A light date field: a text field that shows a day in the interface language's short form
// (29.11.2026 in Russian, 29/11/2026 in Vietnamese) and reads one typed the ways that language
// writes dates (lib/time's dateInputFormats), taken on Enter or as the field is left; a date it
// cannot read marks the field invalid and keeps the day it had. Beside it a calendar button
// opens the browser's own date picker (an unseen <input type="date">), so the popup is native
// and costs no code. With `week` the field shows the week (Monday's date – Sunday's date) and a
// day typed or picked stands for its week (its Monday).
import dayjs from 'dayjs'
import customParseFormat from 'dayjs/plugin/customParseFormat'
import { useRef, useState, type InputHTMLAttributes } from 'react'
import { useTranslation } from 'react-i18next'
import { dateInputFormats, formatDay } from '../lib/time'
import styles from './DateInput.module.css'
import { CalendarIcon } from './icons'
import { Input } from './Input'

dayjs.extend(customParseFormat)

const ISO = 'YYYY-MM-DD'

/** Monday of the week that holds day (an ISO date). */
const monday = (day: string) => {
  const d = dayjs(day)
  return d.subtract((d.day() + 6) % 7, 'day').format(ISO)
}

/** What the field shows for a day: the day, or its week's Monday – Sunday. */
export const shownDate = (day: string, week: boolean, lang: string) => {
  if (!week) return formatDay(day, lang)
  const from = monday(day)
  return `${formatDay(from, lang)} – ${formatDay(dayjs(from).add(6, 'day').format(ISO), lang)}`
}

/** A day typed in the language's ways (a week's shown range read by its first day), as an ISO date; undefined if unreadable. */
export const readDate = (text: string, lang: string) => {
  const first = text.split(' – ')[0]!.trim()
  const d = dayjs(first, dateInputFormats(lang), true)
  return d.isValid() ? d.format(ISO) : undefined
}

export interface DateInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> {
  /** The day, as an ISO date (YYYY-MM-DD). */
  value: string
  onChange: (day: string) => void
  /** The field shows the week of the day, and a day chosen stands for its Monday. */
  week?: boolean
}

export function DateInput({ value, onChange, week = false, className, onBlur, onKeyDown, ...rest }: DateInputProps) {
  const { t, i18n } = useTranslation()
  const shown = shownDate(value, week, i18n.language)
  // What is being typed, until it is taken (Enter, leaving the field); null shows the value.
  const [typed, setTyped] = useState<string | null>(null)
  const [invalid, setInvalid] = useState(false)
  const picker = useRef<HTMLInputElement>(null)
  const choose = (day: string) => onChange(week ? monday(day) : day)
  const take = () => {
    if (typed === null) return
    const day = readDate(typed, i18n.language)
    if (!day) return setInvalid(true)
    setTyped(null)
    setInvalid(false)
    if (day !== value) choose(day)
  }
  const open = () => {
    const p = picker.current
    if (!p) return
    try {
      p.showPicker()
    } catch {
      p.focus()
    }
  }
  return (
    <span className={[styles.wrap, week ? styles.week : '', className].filter(Boolean).join(' ')}>
      <Input
        {...rest}
        className={styles.text}
        value={typed ?? shown}
        placeholder={t('dateInput.placeholder')}
        aria-invalid={invalid || rest['aria-invalid'] ? true : undefined}
        onChange={(e) => {
          setTyped(e.target.value)
          setInvalid(false)
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') take()
          else if (e.key === 'Escape' && typed !== null) {
            // Escape gives back the day shown before the typing.
            e.preventDefault()
            setTyped(null)
            setInvalid(false)
          }
          onKeyDown?.(e)
        }}
        onBlur={(e) => {
          take()
          onBlur?.(e)
        }}
      />
      <button type="button" className={styles.button} aria-label={t('dateInput.calendar')} title={t('dateInput.calendar')} onClick={open} disabled={rest.disabled}>
        <CalendarIcon />
      </button>
      {/* The browser's date picker: unseen and out of the Tab order; the button opens it. */}
      <input
        ref={picker}
        type="date"
        className={styles.picker}
        tabIndex={-1}
        aria-hidden
        value={value}
        onChange={(e) => {
          if (!e.target.value) return
          setTyped(null)
          setInvalid(false)
          choose(e.target.value)
        }}
      />
    </span>
  )
}
