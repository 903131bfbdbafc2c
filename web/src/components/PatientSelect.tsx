import { Select, Spin } from 'antd'
import { useEffect, useMemo, useState, type CSSProperties } from 'react'
import { debounce } from '../lib/debounce'
import { fullName } from '../lib/patient'
import { getPatientRow, searchPatients, type PatientRow } from '../lib/queries/searchPatients'
import { useClearable } from './clearable'
import { formatDay } from '../lib/time'

type Option = { value: number; label: string; name: string; detail: string }

/**
 * One patient as an option. The label (the chosen one's text, and the option's accessible
 * name) holds the birth date, which tells namesakes apart; the list shows the name and, after
 * it or on a line of its own where the list is narrow, the birth date and patient number.
 */
const option = (p: PatientRow): Option => {
  const [name, born] = [fullName(p), formatDay(p.birth_date)]
  return { value: p.id, label: `${p.mrn} — ${name} (${born})`, name, detail: `${born} · ${p.mrn}` }
}

const twoParts = (o: Option) => (
  <span className="patient-option">
    <span className="patient-option-name">{o.name}</span>
    <span className="patient-option-detail">{o.detail}</span>
  </span>
)

/**
 * Picks a patient by name or patient number, searching the server as the user types (two
 * characters or more). A patient chosen already is shown by name. Works as a form control.
 */
export function PatientSelect({ id, value, onChange, placeholder, notFound, ariaLabel, style }: {
  /** Set by a Form.Item, so that its label names this control. */
  id?: string
  value?: number | null
  onChange?: (id?: number) => void
  placeholder?: string
  /** Said when a search finds nobody. */
  notFound?: string
  ariaLabel?: string
  style?: CSSProperties
}) {
  const clear = useClearable()
  const [options, setOptions] = useState<Option[]>([])
  const [searching, setSearching] = useState(false)
  const known = value == null || options.some((o) => o.value === value)
  useEffect(() => {
    if (!known && value != null) void getPatientRow(value).then((p) => setOptions((o) => [option(p), ...o]))
  }, [known, value])
  const search = useMemo(
    () =>
      debounce(async (q: string) => {
        if (q.length < 2) return
        setSearching(true)
        try {
          setOptions((await searchPatients(q)).map(option))
        } finally {
          setSearching(false)
        }
      }, 250),
    [],
  )
  return (
    <Select
      id={id}
      showSearch={{ filterOption: false, onSearch: (q) => void search(q.trim()) }}
      allowClear={clear.select}
      aria-label={ariaLabel}
      placeholder={placeholder}
      notFoundContent={searching ? <Spin size="small" /> : notFound}
      value={value ?? undefined}
      onChange={(v?: number) => onChange?.(v)}
      options={options}
      optionRender={({ data }) => twoParts(data)}
      // The chosen patient alike: cut short on a phone, the birth date would be lost again.
      labelRender={({ value: v, label }) => {
        const chosen = options.find((o) => o.value === v)
        return chosen ? twoParts(chosen) : label
      }}
      style={style}
      className="patient-select"
    />
  )
}
