import { useEffect, useMemo, useState, type CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import { debounce } from '../lib/debounce'
import { fullName } from '../lib/patient'
import { getPatientRow, searchPatients, type PatientRow } from '../lib/queries/searchPatients'
import { formatDay } from '../lib/time'
import { Combobox, type ComboboxOption } from '../light/Combobox'
import styles from './PatientSelect.module.css'

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

/**
 * Picks a patient by name or patient number, searching the server as the user types (two
 * characters or more). A patient chosen already is shown by name. Works as a form control
 * (a library form's item gives it its id, value and onChange): emptying the box clears it.
 */
export function PatientSelect({ id, value, onChange, placeholder, notFound, ariaLabel, style, 'aria-describedby': describedBy, 'aria-invalid': invalid, 'aria-required': required }: {
  /** Set by a Form.Item, so that its label names this control. */
  id?: string
  /** Set by a light form's Field: its help and message describe the box, which is marked while wrong. */
  'aria-describedby'?: string
  'aria-invalid'?: true
  'aria-required'?: true
  value?: number | null
  onChange?: (id?: number) => void
  placeholder?: string
  /** Said when a search finds nobody. */
  notFound?: string
  ariaLabel?: string
  style?: CSSProperties
}) {
  const { t } = useTranslation()
  const [found, setFound] = useState<Option[]>([])
  const [chosen, setChosen] = useState<Option | undefined>()
  const [searching, setSearching] = useState(false)
  // What the user is typing; null while the box shows the chosen patient.
  const [typed, setTyped] = useState<string | null>(null)
  // Named by a form's label (a library form item's, or one of the caller's) when not by ariaLabel:
  // its words name the box and its list alike, which aria-label would otherwise override.
  const [labelText, setLabelText] = useState('')
  useEffect(() => {
    if (!id || ariaLabel) return
    // Read once the label is drawn: a library form item draws it beside this control, in the same pass.
    const frame = requestAnimationFrame(() => setLabelText([...document.querySelectorAll('label')].find((l) => l.htmlFor === id)?.textContent ?? ''))
    return () => cancelAnimationFrame(frame)
  }, [id, ariaLabel])
  const known = value == null ? undefined : chosen?.value === value ? chosen : found.find((o) => o.value === value)
  useEffect(() => {
    if (value != null && !known) void getPatientRow(value).then((p) => setChosen(option(p)))
  }, [known, value])
  const search = useMemo(
    () =>
      debounce(async (q: string) => {
        if (q.length < 2) return
        setSearching(true)
        try {
          setFound((await searchPatients(q)).map(option))
        } finally {
          setSearching(false)
        }
      }, 250),
    [],
  )
  const byValue = (v: string) => found.find((o) => String(o.value) === v)
  const twoParts = (o: ComboboxOption) => {
    const p = byValue(o.value)
    return (
      // Drawn by the app's style sheet (styles.css), as the library's list drew them.
      <span className="patient-option">
        <span className="patient-option-name">{p?.name}</span>
        <span className="patient-option-detail">{p?.detail}</span>
      </span>
    )
  }
  return (
    <div
      className={styles.picker}
      style={style}
      // Leaving the box with a search unfinished shows the chosen patient again, as a select does.
      onBlur={(e) => !e.currentTarget.contains(e.relatedTarget) && setTyped(null)}
    >
      <Combobox
        field
        id={id}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        aria-required={required}
        label={ariaLabel ?? (labelText || placeholder || t('app.icons.search'))}
        placeholder={placeholder}
        query={typed ?? known?.label ?? ''}
        onQueryChange={(q) => {
          setTyped(q)
          if (!q.trim() && value != null) onChange?.(undefined)
          void search(q.trim())
        }}
        options={found.map((o) => ({ value: String(o.value), label: o.label }))}
        renderOption={twoParts}
        onChoose={(v) => {
          const o = byValue(v)
          setTyped(null)
          if (o) setChosen(o)
          onChange?.(Number(v))
        }}
        emptyText={searching ? t('app.loading') : notFound}
      />
    </div>
  )
}
