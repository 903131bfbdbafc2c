import { useEffect, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { favouritesFirst, usePicks } from '../../../lib/charting'
import { debounce } from '../../../lib/debounce'
import { Combobox } from '../../../light/Combobox'
import { CloseIcon } from '../../../light/icons'
import { searchCodes } from '../api/searchCodes'
import type { Code } from '../api/types'
import styles from './CodeSelect.module.css'

interface Props {
  value?: string
  /** The code chosen ('' for none), with its label where the list gave one. */
  onChange?: (v: string, label?: string) => void
  /** The chosen code's label, as the visit was read (the list has not been searched yet). */
  initialLabel?: string
  disabled?: boolean
  /** The id, help and message the form's field gives its control (the old Form.Item's or a light Field's). */
  id?: string
  'aria-describedby'?: string
  'aria-invalid'?: boolean | 'true' | 'false'
}

const text = (c: Code) => `${c.code} — ${c.label}`

/**
 * A code picker that searches the code list as the doctor types (code or words): a form's select
 * with search, showing the chosen code and its label; what is typed searches only, and leaving
 * the box puts the chosen code back, unless the box was emptied, which clears it (as the
 * library's clear button did, which is here too).
 */
export function CodeSelect({ value, onChange, initialLabel, disabled, id, 'aria-describedby': describedBy, 'aria-invalid': invalid }: Props) {
  const { t } = useTranslation()
  const [found, setOptions] = useState<Code[]>(value ? [{ code: value, label: initialLabel ?? '' }] : [])
  // What is typed while searching; null while the box shows the chosen code.
  const [query, setQuery] = useState<string | null>(null)
  const picks = usePicks()
  // A failed search has been said by the API client; the list stays as it was. A search still
  // waiting when the field goes is dropped.
  const search = useMemo(() => debounce((q: string) => void searchCodes(q).then(setOptions, () => undefined), 200), [])
  useEffect(() => () => search.cancel(), [search])
  // Before anything is typed, the doctor's favourites and most used codes; a search's results with those first.
  const mine = (picks.data?.codes ?? []).map((p) => ({ code: p.ref, label: p.label }))
  const options = favouritesFirst((query ?? '').trim() === '' && mine.length > 0 ? [...mine, ...found.filter((c) => !mine.some((m) => m.code === c.code))] : found, picks.data?.codes, (c) => c.code)
  const starred = new Set((picks.data?.codes ?? []).filter((p) => p.favourite).map((p) => p.ref))
  const chosen = value ? ([...options, ...found].find((c) => c.code === value) ?? { code: value, label: initialLabel ?? '' }) : undefined
  const shown = query ?? (chosen ? (chosen.label ? text(chosen) : chosen.code) : '')
  const wrap = useRef<HTMLDivElement>(null)
  const change = (v: string) => {
    setQuery(null)
    if (v !== (value ?? '')) onChange?.(v, [...options, ...found].find((c) => c.code === v)?.label)
    // The chosen code's text is selected, so that what is typed next searches anew (as the
    // library's select cleared its search), not after the code's words.
    requestAnimationFrame(() => {
      const box = wrap.current?.querySelector('input')
      if (box && document.activeElement === box) box.select()
    })
  }
  return (
    <div
      ref={wrap}
      className={styles.wrap}
      onBlur={(e) => {
        if (e.currentTarget.contains(e.relatedTarget)) return
        // Left with the box emptied: no code; otherwise the chosen one is shown again.
        if (query !== null && query.trim() === '') change('')
        else setQuery(null)
      }}
    >
      <Combobox
        field
        quiet
        activateFirst
        id={id}
        aria-describedby={describedBy}
        aria-invalid={invalid === true || invalid === 'true' ? true : undefined}
        label={t('visit.fields.code')}
        placeholder={t('visit.codeSearch')}
        disabled={disabled}
        query={shown}
        onQueryChange={(q) => {
          setQuery(q)
          search(q)
        }}
        onFocus={() => found.length <= 1 && search('')}
        options={options.map((c) => ({ value: c.code, label: starred.has(c.code) ? `★ ${text(c)}` : text(c) }))}
        onChoose={change}
        emptyText={t('visit.codeNone')}
      />
      {value && !disabled && (
        <button type="button" className={styles.clear} aria-label={t('app.clear')} onClick={() => (change(''), wrap.current?.querySelector('input')?.focus())}>
          <CloseIcon />
        </button>
      )}
    </div>
  )
}
