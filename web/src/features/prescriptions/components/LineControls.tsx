// The controls of a prescription line that are not plain text: the medicine (typed, or picked
// from the catalogue), the route and a count in a range (refills). MedicineInput is also the
// current medicines' dialog's.
import { useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { debounce } from '../../../lib/debounce'
import { favouritesFirst, usePicks } from '../../../lib/charting'
import { Combobox } from '../../../light/Combobox'
import type { ControlProps } from '../../../light/Field'
import { Input, Select } from '../../../light/Input'
import { searchMedicines } from '../api/searchMedicines'
import { ROUTES, type Medicine } from '../api/types'

/**
 * The medicine of a line: typed freely, or picked from the catalogue (then onPick gets the
 * entry; typing over it, null). picks: offer the prescriber's favourites and most used (not
 * for whoever does not prescribe).
 */
export function MedicineInput({
  value,
  onChange,
  onPick,
  label,
  picks: offerPicks = true,
  ...control
}: { value?: string; onChange?(v: string): void; onPick(m: Medicine | null): void; label: string; picks?: boolean } & Partial<ControlProps>) {
  const [found, setOptions] = useState<Medicine[]>([])
  const picks = usePicks(offerPicks)
  const picked = useRef<string | undefined>(undefined)
  const search = useMemo(() => debounce((q: string) => void searchMedicines(q).then(setOptions, () => setOptions([])), 250), [])
  // Nothing typed yet: the prescriber's favourites and most used; a search: its results with those first.
  const mine = (picks.data?.medicines ?? []).flatMap((p) => (p.medicine ? [p.medicine] : []))
  const options = (value ?? '').trim() === '' ? mine : favouritesFirst(found, picks.data?.medicines, (m) => String(m.id))
  const starred = new Set((picks.data?.medicines ?? []).filter((p) => p.favourite).map((p) => p.ref))
  const typed = (v: string) => {
    onChange?.(v)
    if (picked.current !== undefined && v !== picked.current) {
      picked.current = undefined
      onPick(null)
    }
  }
  return (
    // Enter as in the library's search box of a form: with the list open it never sends the
    // form (it takes the option chosen with the arrows, if any); with it closed it does.
    <div
      onKeyDownCapture={(e) => {
        if (e.key !== 'Enter' || !(e.target instanceof HTMLInputElement)) return
        if (e.target.getAttribute('aria-expanded') === 'true') e.preventDefault()
        else e.target.form?.requestSubmit()
      }}
    >
      <Combobox
        field
        id={control.id}
        aria-describedby={control['aria-describedby']}
        aria-invalid={control['aria-invalid']}
        label={label}
        query={value ?? ''}
        options={options.map((m) => ({ value: String(m.id), label: starred.has(String(m.id)) ? `★ ${m.label}` : m.label }))}
        onQueryChange={(q) => {
          typed(q)
          if (q.trim()) search(q)
          else setOptions([])
        }}
        onChoose={(id) => {
          const m = options.find((o) => String(o.id) === id)
          if (!m) return
          typed(m.label)
          picked.current = m.label
          onPick(m)
        }}
      />
    </div>
  )
}

/** The route: one of the server's list, or none (an older line's route it no longer lists is kept, shown by its name). */
export function RouteSelect({ value, onChange, ...control }: ControlProps & { value: string; onChange(route: string): void }) {
  const { t } = useTranslation()
  const routes: string[] = [...ROUTES]
  if (value && !routes.includes(value)) routes.unshift(value)
  return <Select {...control} value={value} onChange={onChange} options={[{ value: '', label: '' }, ...routes.map((r) => ({ value: r, label: t(`rx.routes.${r}`, { defaultValue: r }) }))]} />
}

/**
 * A whole number in a range (refills), as the library's number field without its arrows: typed,
 * ArrowUp and ArrowDown step it, and as the field is left it is brought into the range (what
 * cannot be read goes back to the last number).
 */
export function CountInput({ value, onChange, min, max, ...control }: ControlProps & { value: number | null; onChange(v: number | null): void; min: number; max: number }) {
  const [text, setText] = useState<string | null>(null)
  const clamp = (n: number) => Math.min(max, Math.max(min, Math.round(n)))
  const take = (n: number | null) => {
    setText(null)
    if (n !== value) onChange(n)
  }
  const settle = () => {
    if (text === null) return
    const n = Number(text.trim())
    take(text.trim() === '' ? null : Number.isFinite(n) ? clamp(n) : value)
  }
  return (
    <Input
      {...control}
      inputMode="numeric"
      autoComplete="off"
      role="spinbutton"
      aria-valuemin={min}
      aria-valuemax={max}
      aria-valuenow={value ?? undefined}
      value={text ?? (value === null ? '' : String(value))}
      onChange={(e) => {
        const typed = e.target.value
        setText(typed)
        const n = Number(typed.trim())
        if (typed.trim() === '') onChange(null)
        else if (Number.isFinite(n) && n >= min && n <= max) onChange(Math.round(n))
      }}
      onBlur={settle}
      onKeyDown={(e) => {
        // Enter sends the form: what is typed is brought into range first, as leaving the field
        // does (the library's number field did the same), so the count sent is the one shown.
        if (e.key === 'Enter') return settle()
        if (e.key !== 'ArrowUp' && e.key !== 'ArrowDown') return
        e.preventDefault()
        take(clamp((value ?? 0) + (e.key === 'ArrowUp' ? 1 : -1)))
      }}
    />
  )
}
