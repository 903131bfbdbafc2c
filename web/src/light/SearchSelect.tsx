// A choice among a known list of options with a search (the library's select with showSearch):
// the box shows what is chosen (or the placeholder); typing in it narrows the list to the options
// whose words hold the text, and leaving it without choosing shows the choice again. Given a
// form's field (light/Field), it takes the field's id, help and message.
import { useState } from 'react'
import { Combobox, type ComboboxOption } from './Combobox'
import type { ControlProps } from './Field'

interface Props extends Partial<ControlProps> {
  label: string
  value: string | undefined
  options: ComboboxOption[]
  onChange: (value: string) => void
  placeholder?: string
  className?: string
  /** Shown under the box when what is typed finds nothing. */
  emptyText?: string
}

export function SearchSelect({ label, value, options, onChange, placeholder, className, ...control }: Props) {
  // What is typed, while the user searches; null shows the choice.
  const [query, setQuery] = useState<string | null>(null)
  const chosen = options.find((o) => o.value === value)?.label ?? ''
  const words = query?.trim().toLowerCase()
  const found = words ? options.filter((o) => o.label.toLowerCase().includes(words)) : options
  return (
    <div className={className} onBlur={() => setQuery(null)}>
      <Combobox
        {...control}
        field
        activateFirst
        label={label}
        placeholder={placeholder}
        query={query ?? chosen}
        onQueryChange={setQuery}
        options={found}
        onChoose={(v) => {
          setQuery(null)
          onChange(v)
        }}
      />
    </div>
  )
}
