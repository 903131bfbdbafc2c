// The booking form's time (issue 58): as the library's time picker offered it, a time of day
// written HH:mm (never AM/PM, whatever the browser's language), chosen from the day's times
// five minutes apart or typed. The list opens at the time chosen (the earlier ones after the last); typing narrows it to the
// times that begin with what is typed ("9:3" or "09:3" → 09:30, 09:35), and Enter takes the
// first. A time off the five-minute steps (an appointment booked online at 10:07) stays offered.
import { useState } from 'react'
import { Combobox } from '../../light/Combobox'
import type { ControlProps } from '../../light/Field'

const STEPS = Array.from({ length: (24 * 60) / 5 }, (_, i) => `${String(Math.floor(i / 12)).padStart(2, '0')}:${String((i % 12) * 5).padStart(2, '0')}`)

export function TimeSelect({ label, value, onChange, 'aria-required': _required, ...control }: Partial<ControlProps> & { label: string; value: string; onChange: (time: string) => void }) {
  // What is typed, while the user searches; null shows the time chosen.
  const [query, setQuery] = useState<string | null>(null)
  const times = value && !STEPS.includes(value) ? [...STEPS, value].sort() : STEPS
  const typed = query?.trim()
  const at = Math.max(0, times.indexOf(value))
  const found = typed ? times.filter((t) => t.startsWith(typed) || t.startsWith(`0${typed}`)) : [...times.slice(at), ...times.slice(0, at)]
  return (
    <div onBlur={() => setQuery(null)}>
      <Combobox
        {...control}
        field
        activateFirst
        label={label}
        query={query ?? value}
        onQueryChange={setQuery}
        options={found.map((t) => ({ value: t, label: t }))}
        onChoose={(t) => {
          setQuery(null)
          onChange(t)
        }}
      />
    </div>
  )
}
