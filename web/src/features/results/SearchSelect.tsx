// A choice among options with a search (the library's select with showSearch): the box shows
// what is chosen; typing in it narrows the list to the options whose words hold the text, and
// leaving it without choosing shows the choice again.
import { useState } from 'react'
import { Combobox, type ComboboxOption } from '../../light/Combobox'

export function SearchSelect({ label, value, options, onChange, className }: { label: string; value: string | undefined; options: ComboboxOption[]; onChange: (value: string) => void; className?: string }) {
  // What is typed, while the user searches; null shows the choice.
  const [query, setQuery] = useState<string | null>(null)
  const chosen = options.find((o) => o.value === value)?.label ?? ''
  const words = query?.trim().toLowerCase()
  const found = words ? options.filter((o) => o.label.toLowerCase().includes(words)) : options
  return (
    <div className={className} onBlur={() => setQuery(null)}>
      <Combobox
        field
        activateFirst
        label={label}
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
