// The booking form's time (issue 58): as the library's time picker offered it, a time of day
// written HH:mm (never AM/PM, whatever the browser's language), chosen from the day's times
// five minutes apart or typed. The list opens at the time chosen (the earlier ones after the
// last); typing narrows it to the times that begin with what is typed ("9:3", "09:3", "93" or
// "9.3" → 09:30, 09:35), and Enter takes the first. A time typed whole is taken as it is, on
// the five-minute steps or not ("10:07", "1007", "9.07", "9h07"), by Enter or by leaving the
// field, as the library's picker took it; a text that is no time stays in the field, and the
// form says so (appointments.timeFormat). A time off the steps already held stays offered.
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Combobox } from '../../light/Combobox'
import type { ControlProps } from '../../light/Field'

const pad = (n: number) => String(n).padStart(2, '0')
const STEPS = Array.from({ length: (24 * 60) / 5 }, (_, i) => `${pad(Math.floor(i / 12))}:${pad((i % 12) * 5)}`)

/** A time typed whole, as HH:mm; undefined when the text is not one. */
export function parseTime(text: string): string | undefined {
  const s = text.trim().toLowerCase()
  const m = /^(\d{1,2})\s*[:.h]\s*(\d{2})$/.exec(s) ?? /^(\d{1,2})(\d{2})$/.exec(s) ?? /^(\d{1,2})\s*h?$/.exec(s)
  if (!m) return undefined
  const h = Number(m[1])
  const min = Number(m[2] ?? 0)
  return h <= 23 && min <= 59 ? `${pad(h)}:${pad(min)}` : undefined
}

/** What a typed beginning of a time can stand for, each as the start of an HH:mm. */
function prefixes(text: string): string[] {
  const s = text.trim().toLowerCase().replace(/\s*[.h]\s*/, ':')
  const colon = /^(\d{1,2}):(\d{0,2})$/.exec(s)
  if (colon) return [`${pad(Number(colon[1]))}:${colon[2]}`]
  if (!/^\d{1,3}$/.test(s)) return [s]
  // Digits alone: an hour ("9", "10"), or an hour and the start of its minutes ("93", "103").
  if (s.length === 1) return [`0${s}`]
  if (s.length === 2) return [s, `0${s[0]}:${s[1]}`]
  return [`${s.slice(0, 2)}:${s[2]}`, `0${s[0]}:${s.slice(1)}`]
}

export function TimeSelect({ label, value, onChange, ...control }: Partial<ControlProps> & { label: string; value: string; onChange: (time: string) => void }) {
  const { t } = useTranslation()
  // What is typed, while the user searches; null shows the time held.
  const [query, setQuery] = useState<string | null>(null)
  const held = parseTime(value)
  const times = held && !STEPS.includes(held) ? [...STEPS, held].sort() : STEPS
  const typed = query?.trim()
  const whole = typed ? parseTime(typed) : undefined
  const at = Math.max(0, times.indexOf(held ?? ''))
  const starts = typed ? prefixes(typed) : []
  const matching = typed ? times.filter((time) => starts.some((p) => time.startsWith(p))) : [...times.slice(at), ...times.slice(0, at)]
  // A time typed whole comes first, on the steps or not, so that Enter takes it.
  const found = whole ? [whole, ...matching.filter((time) => time !== whole)] : matching
  // Leaving the field takes what is typed: a time as it is, anything else kept as typed for the
  // form to refuse (never the time held before, saved instead of the one typed).
  const leave = () => {
    if (query === null) return
    setQuery(null)
    if (typed) onChange(whole ?? typed)
  }
  return (
    <div onBlur={leave}>
      <Combobox
        {...control}
        field
        activateFirst
        label={label}
        query={query ?? value}
        onQueryChange={setQuery}
        options={found.map((time) => ({ value: time, label: time }))}
        emptyText={t('appointments.timeFormat')}
        onChoose={(time) => {
          setQuery(null)
          onChange(time)
        }}
      />
    </div>
  )
}
