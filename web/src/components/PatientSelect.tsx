import { Select, Spin } from 'antd'
import { useEffect, useMemo, useState, type CSSProperties } from 'react'
import { debounce } from '../lib/debounce'
import { fullName } from '../lib/patient'
import { getPatientRow, searchPatients, type PatientRow } from '../lib/queries/searchPatients'
import { useClearable } from './clearable'
import { formatDay } from '../lib/time'

const option = (p: PatientRow) => ({ value: p.id, label: `${p.mrn} — ${fullName(p)} (${formatDay(p.birth_date)})` })

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
  const [options, setOptions] = useState<{ value: number; label: string }[]>([])
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
      style={style}
    />
  )
}
