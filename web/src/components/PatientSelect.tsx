import { Select } from 'antd'
import { useMemo, useState, type CSSProperties } from 'react'
import { get } from '../lib/api'
import { debounce } from '../lib/debounce'
import { fullName } from '../lib/patient'

interface PatientRow {
  id: number
  mrn: string
  first_name: string
  middle_name: string
  last_name: string
  birth_date: string
}

/** Picks a patient by name or patient number, searching the server as the user types. */
export function PatientSelect({ value, onChange, placeholder, ariaLabel, style }: {
  value?: number
  onChange?: (id?: number) => void
  placeholder?: string
  ariaLabel: string
  style?: CSSProperties
}) {
  const [options, setOptions] = useState<{ value: number; label: string }[]>([])
  const search = useMemo(
    () =>
      debounce(
        (q: string) =>
          void get<{ data: PatientRow[] }>('/patients', { q, per_page: 10 }).then((r) =>
            setOptions(r.data.map((p) => ({ value: p.id, label: `${p.mrn} — ${fullName(p)} (${p.birth_date})` }))),
          ),
        250,
      ),
    [],
  )
  return (
    <Select
      showSearch={{ filterOption: false, onSearch: (q) => q.trim().length >= 2 && search(q.trim()) }}
      allowClear
      aria-label={ariaLabel}
      placeholder={placeholder}
      value={value}
      onChange={(v?: number) => onChange?.(v)}
      options={options}
      style={style}
    />
  )
}
