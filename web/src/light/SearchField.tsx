// A light search field: an <input type="search"> in a role="search" landmark, named by its
// label, with a search button. What is typed stays in the field's own state (the screen around
// it does not re-render per keystroke): onChange hears each change (the screen debounces it),
// onSearch hears Enter and the button (search now).
import { useState, type ChangeEvent, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { SearchIcon } from './icons'
import styles from './SearchField.module.css'

export interface SearchFieldProps {
  /** The field's accessible name. */
  label: string
  placeholder?: string
  /** The text the field starts with (the address's query). */
  defaultValue?: string
  onChange?: (value: string) => void
  onSearch: (value: string) => void
  className?: string
}

export function SearchField({ label, placeholder, defaultValue = '', onChange, onSearch, className }: SearchFieldProps) {
  const { t } = useTranslation()
  const [value, setValue] = useState(defaultValue)
  const change = (e: ChangeEvent<HTMLInputElement>) => {
    setValue(e.target.value)
    onChange?.(e.target.value)
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSearch(value)
  }
  return (
    <form role="search" className={[styles.search, className].filter(Boolean).join(' ')} onSubmit={submit}>
      <input type="search" className={styles.input} value={value} placeholder={placeholder} aria-label={label} onChange={change} enterKeyHint="search" />
      <button type="submit" className={styles.button} aria-label={t('app.icons.search')}>
        <SearchIcon />
      </button>
    </form>
  )
}
