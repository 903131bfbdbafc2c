import { Select } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useClearable } from '../../../components/clearable'
import { debounce } from '../../../lib/debounce'
import { searchCodes } from '../api/searchCodes'
import type { Code } from '../api/types'
import { favouritesFirst, usePicks } from '../../../lib/charting'

/** A code picker that searches the code list as the doctor types (code or words). */
export function CodeSelect({ value, onChange, initialLabel, disabled, id }: { value?: string; onChange?: (v: string) => void; initialLabel?: string; disabled?: boolean; id?: string }) {
  const clear = useClearable()
  const { t } = useTranslation()
  const [found, setOptions] = useState<Code[]>(value ? [{ code: value, label: initialLabel ?? '' }] : [])
  const [query, setQuery] = useState('')
  const picks = usePicks()
  const search = useMemo(() => debounce((q: string) => void searchCodes(q).then(setOptions), 200), [])
  // Before anything is typed, the doctor's favourites and most used codes; a search's results with those first.
  const mine = (picks.data?.codes ?? []).map((p) => ({ code: p.ref, label: p.label }))
  const options = favouritesFirst(query.trim() === '' && mine.length > 0 ? [...mine, ...found.filter((c) => !mine.some((m) => m.code === c.code))] : found, picks.data?.codes, (c) => c.code)
  const starred = new Set((picks.data?.codes ?? []).filter((p) => p.favourite).map((p) => p.ref))
  return (
    <Select
      id={id}
      aria-label={t('visit.fields.code')}
      value={value || undefined}
      onChange={(v) => onChange?.(v ?? '')}
      disabled={disabled}
      allowClear={clear.select}
      placeholder={t('visit.codeSearch')}
      showSearch={{ filterOption: false, onSearch: (q) => (setQuery(q), search(q)) }}
      onFocus={() => found.length <= 1 && search('')}
      options={options.map((c) => ({ value: c.code, label: `${c.code} — ${c.label}` }))}
      optionRender={(o) => (starred.has(String(o.value)) ? `★ ${String(o.label)}` : o.label)}
      notFoundContent={t('visit.codeNone')}
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
    />
  )
}
