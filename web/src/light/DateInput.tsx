// A light date field: a text field that shows a day in the interface language's short form
// (29.11.2026 in Russian, 29/11/2026 in Vietnamese) and reads one typed the ways that language
// writes dates (lib/time's dateInputFormats), taken on Enter or as the field is left; a date it
// cannot read marks the field invalid, keeps the day it had and says under the field how to type
// one (a polite live region, always there, that the field is described by) until a readable date
// is taken or Escape shows the day again. Where the browser can open its date picker from a
// script (showPicker), a calendar button in the field opens it (an unseen <input type="date">,
// disabled, so never reached by Tab nor counted by a dialog's Tab loop, but while it opens), so
// the popup is native and costs no code. An optional day (a last dose) may be emptied. With `week` the field shows the week (Monday's date – Sunday's date) and a
// day typed or picked stands for its week (its Monday).
import dayjs from 'dayjs'
import customParseFormat from 'dayjs/plugin/customParseFormat'
import { useEffect, useId, useRef, useState, type InputHTMLAttributes } from 'react'
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

/** Whether this browser opens a date input's picker from a script (no calendar button without it). */
const canShowPicker = () => typeof HTMLInputElement !== 'undefined' && 'showPicker' in HTMLInputElement.prototype

export interface DateInputProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'type'> {
  /** The day, as an ISO date (YYYY-MM-DD). */
  value: string
  onChange: (day: string) => void
  /** The field shows the week of the day, and a day chosen stands for its Monday. */
  week?: boolean
  /** The first day that may be chosen (ISO): the picker offers none before it, and one typed before it is not taken: the field says the first day it takes. */
  min?: string
  /** The last day that may be chosen (ISO; a last dose is never tomorrow): as min, at the other end. */
  max?: string
  /** The field may be emptied (an optional day): value '' shows an empty field, and a field left empty gives ''. */
  clearable?: boolean
}

export function DateInput({ value, onChange, week = false, min, max, clearable = false, className, onBlur, onKeyDown, ...rest }: DateInputProps) {
  const { t, i18n } = useTranslation()
  const shown = clearable && !value ? '' : shownDate(value, week, i18n.language)
  // What is being typed, until it is taken (Enter, leaving the field); null shows the value.
  const [typed, setTyped] = useState<string | null>(null)
  // A typed date could not be read (the message says how to type one), or is outside the days
  // that may be chosen (the message names the first or the last): the field is marked.
  const [invalid, setInvalid] = useState<false | 'unread' | 'early' | 'late'>(false)
  const hintId = useId()
  const picker = useRef<HTMLInputElement>(null)
  const withPicker = canShowPicker()
  const choose = (day: string) => onChange(week ? monday(day) : day)
  const reset = () => {
    setTyped(null)
    setInvalid(false)
  }
  /** Takes what is typed; false when it is refused (unread, or outside the days that may be chosen). */
  const take = (): boolean => {
    if (typed === null) return true
    if (clearable && typed.trim() === '') {
      reset()
      if (value) onChange('')
      return true
    }
    const day = readDate(typed, i18n.language)
    if (!day) return (setInvalid('unread'), false)
    if (min && day < min) return (setInvalid('early'), false)
    if (max && day > max) return (setInvalid('late'), false)
    reset()
    if (day !== value) choose(day)
    return true
  }
  // The picker is enabled only to open (a disabled input cannot); closed, it is disabled again.
  const shut = () => {
    if (picker.current) picker.current.disabled = true
  }
  // The picker closed without a day: the input's own cancel event (not one React hands on).
  useEffect(() => {
    const p = picker.current
    p?.addEventListener('cancel', shut)
    return () => p?.removeEventListener('cancel', shut)
  }, [withPicker])
  const open = () => {
    const p = picker.current
    if (!p) return
    p.disabled = false
    try {
      p.showPicker()
    } catch {
      shut() // refused (no user activation): nothing opens
    }
  }
  const describedBy = [rest['aria-describedby'], invalid ? hintId : undefined].filter(Boolean).join(' ') || undefined
  return (
    // In a form's field (light/Field gives it an id), its message sits under it in the flow, as
    // the field's other messages do; alone in a toolbar, it floats under it, over what follows.
    <span className={[styles.wrap, week ? styles.week : '', rest.id ? styles.inField : '', className].filter(Boolean).join(' ')}>
      <Input
        {...rest}
        className={[styles.text, withPicker ? styles.withButton : ''].filter(Boolean).join(' ')}
        value={typed ?? shown}
        placeholder={t('dateInput.placeholder')}
        aria-invalid={invalid || rest['aria-invalid'] ? true : undefined}
        aria-describedby={describedBy}
        onChange={(e) => setTyped(e.target.value)}
        onKeyDown={(e) => {
          // A refused day keeps Enter from going on: a dialog's form is not sent without it.
          if (e.key === 'Enter' && !take()) e.preventDefault()
          else if (e.key === 'Escape' && typed !== null) {
            // Escape gives back the day shown before the typing.
            e.preventDefault()
            reset()
          }
          onKeyDown?.(e)
        }}
        onBlur={(e) => {
          // Left with a day it refuses, the field shows the day it holds again (what a form
          // sends is what it shows), and the message stays to say why.
          if (!take()) setTyped(null)
          onBlur?.(e)
        }}
      />
      {/* Always there, so that a screen reader hears the message as it appears. */}
      <span id={hintId} className={styles.error} aria-live="polite">
        {invalid === 'unread' && t('dateInput.invalid', { format: t('dateInput.placeholder'), example: formatDay(dayjs().format(ISO), i18n.language) })}
        {invalid === 'early' && min && t('dateInput.tooEarly', { date: formatDay(min, i18n.language) })}
        {invalid === 'late' && max && t('dateInput.tooLate', { date: formatDay(max, i18n.language) })}
      </span>
      {withPicker && (
        <>
          <button type="button" className={styles.button} aria-label={t('dateInput.calendar')} title={t('dateInput.calendar')} onClick={open} disabled={rest.disabled}>
            <CalendarIcon />
          </button>
          {/* The browser's date picker: unseen, disabled but while the button opens it. */}
          <input
            ref={picker}
            type="date"
            className={styles.picker}
            tabIndex={-1}
            aria-hidden
            disabled
            value={value}
            min={min}
            max={max}
            onBlur={shut}
            onChange={(e) => {
              shut()
              if (!e.target.value) return
              reset()
              choose(e.target.value)
            }}
          />
        </>
      )}
    </span>
  )
}
