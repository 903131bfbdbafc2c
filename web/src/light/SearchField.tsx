// A light search field: an <input type="search"> in a role="search" landmark, named by its
// label, with a search button. What is typed stays in the field's own state (the screen around
// it does not re-render per keystroke): onChange hears each change (the screen debounces it),
// onSearch hears Enter and the button (search now). With text in it, a "Clear the field" button
// (a real button, reachable by keyboard in every browser) empties it and searches at once.
import { useRef, useState, type ChangeEvent, type FormEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { CloseIcon, SearchIcon } from './icons'
import styles from './SearchField.module.css'

export interface SearchFieldProps {
  /** The field's accessible name. */
  label: string
  placeholder?: string
  /** The text the field starts with (the address's query), and shows again when it changes. */
  defaultValue?: string
  onChange?: (value: string) => void
  onSearch: (value: string) => void
  className?: string
}

export function SearchField({ label, placeholder, defaultValue = '', onChange, onSearch, className }: SearchFieldProps) {
  const { t } = useTranslation()
  const [value, setValue] = useState(defaultValue)
  // The address's query changed under a view kept open (a link to a search, the tab bar): the
  // field shows it, unless it is what is typed here already (a debounced search of this text).
  const [shown, setShown] = useState(defaultValue)
  if (defaultValue !== shown) {
    setShown(defaultValue)
    if (defaultValue !== value.trim()) setValue(defaultValue)
  }
  const input = useRef<HTMLInputElement>(null)
  const change = (e: ChangeEvent<HTMLInputElement>) => {
    setValue(e.target.value)
    onChange?.(e.target.value)
  }
  const submit = (e: FormEvent) => {
    e.preventDefault()
    onSearch(value)
  }
  // The button goes with the text: the focus goes back to the field, not to the page.
  const clear = () => {
    setValue('')
    onSearch('')
    input.current?.focus()
  }
  return (
    <form role="search" className={[styles.search, className].filter(Boolean).join(' ')} onSubmit={submit}>
      <span className={styles.field}>
        <input ref={input} type="search" className={styles.input} value={value} placeholder={placeholder} aria-label={label} onChange={change} enterKeyHint="search" />
        {value && (
          <button type="button" className={styles.clear} aria-label={t('app.clear')} title={t('app.clear')} onClick={clear}>
            <CloseIcon />
          </button>
        )}
      </span>
      <button type="submit" className={styles.button} aria-label={t('app.icons.search')}>
        <SearchIcon />
      </button>
    </form>
  )
}
