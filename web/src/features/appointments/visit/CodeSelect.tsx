import { Select } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useClearable } from '../../../components/clearable'
import { debounce } from '../../../lib/debounce'
import { searchCodes } from '../api/searchCodes'
import type { Code } from '../api/types'

/** A code picker that searches the code list as the doctor types (code or words). */
export function CodeSelect({ value, onChange, initialLabel, disabled, id }: { value?: string; onChange?: (v: string) => void; initialLabel?: string; disabled?: boolean; id?: string }) {
  const clear = useClearable()
  const { t } = useTranslation()
  const [options, setOptions] = useState<Code[]>(value ? [{ code: value, label: initialLabel ?? '' }] : [])
  const search = useMemo(() => debounce((q: string) => void searchCodes(q).then(setOptions), 200), [])
  return (
    <Select
      id={id}
      aria-label={t('visit.fields.code')}
      value={value || undefined}
      onChange={(v) => onChange?.(v ?? '')}
      disabled={disabled}
      allowClear={clear.select}
      placeholder={t('visit.codeSearch')}
      showSearch={{ filterOption: false, onSearch: search }}
      onFocus={() => options.length <= 1 && search('')}
      options={options.map((c) => ({ value: c.code, label: `${c.code} — ${c.label}` }))}
      notFoundContent={t('visit.codeNone')}
      style={{ width: '100%' }}
      popupMatchSelectWidth={false}
    />
  )
}
