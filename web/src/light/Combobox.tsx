// A light combobox with a list of suggestions (the ARIA 1.2 combobox pattern): a text box
// with role="combobox" whose list opens as the user types; ArrowDown and ArrowUp move the
// active option (aria-activedescendant, focus stays in the box), Enter chooses it (with none
// active, Enter does nothing), Escape closes the list (and a second Escape clears the box). How
// many options there are, or that there are none, is said in a status. The caller finds the options.
import { Fragment, useId, useState, type ReactNode } from 'react'
import styles from './Combobox.module.css'

export interface ComboboxOption {
  value: string
  label: string
  /** The heading of the options it starts (the library's option groups: favourites, then by kind), drawn over the first of them. */
  group?: string
}

export interface ComboboxProps {
  label: string
  query: string
  onQueryChange: (query: string) => void
  options: ComboboxOption[]
  onChoose: (value: string) => void
  placeholder?: string
  /** Shown under the box when the query finds nothing. */
  emptyText?: string
  /** Said (not shown) when the query finds options: how many. */
  countText?: (count: number) => string
  /** Drawn at the box's start, decorative. */
  icon?: ReactNode
  onFocus?: () => void
  onPointerEnter?: () => void
  className?: string
  /** The input's id (a Field's label names it then), and the ids of its help and message. */
  id?: string
  'aria-describedby'?: string
  'aria-invalid'?: true
  /** A form's field that must be filled (said by a screen reader, as its label's mark shows). */
  'aria-required'?: boolean
  /** Drawn as a form's select with search (full width, the list under it at its width). */
  field?: boolean
  /**
   * The first option is active as the list opens or changes, so that Enter takes it: the
   * library's select with search, where the list shows which one is active.
   */
  activateFirst?: boolean
  /** Nothing can be typed or chosen (a signed visit's code). */
  disabled?: boolean
  /**
   * The empty text is shown, not said: the box has no status of its own, where its page has one
   * that must stay the only one (a visit's "Saved at", beside a select in each diagnosis row).
   */
  quiet?: boolean
  /**
   * Draws an option other than as its label (a patient's name, then the birth date and number
   * on a line of their own where the list is narrow); the label stays its accessible name.
   */
  renderOption?: (option: ComboboxOption) => ReactNode
}

export function Combobox({
  label,
  query,
  onQueryChange,
  options,
  onChoose,
  placeholder,
  emptyText,
  countText,
  icon,
  onFocus,
  onPointerEnter,
  className,
  id: inputId,
  'aria-describedby': describedBy,
  'aria-invalid': invalid,
  'aria-required': ariaRequired,
  field,
  activateFirst,
  disabled,
  quiet,
  renderOption,
}: ComboboxProps) {
  const id = useId()
  const first = activateFirst ? 0 : -1
  const [open, setOpen] = useState(false)
  const [active, setActive] = useState(first)
  // A new list of options starts with none active (React's "adjust state on prop change"); the
  // same options drawn again (a new array after a refetch elsewhere) keep the one the user chose
  // with the arrows, so that Enter takes what is highlighted.
  const signature = options.map((o) => o.value).join('\u0000')
  const [shown, setShown] = useState(signature)
  if (shown !== signature) {
    setShown(signature)
    setActive(first)
  }
  const expanded = open && options.length > 0
  const empty = open && Boolean(query.trim()) && options.length === 0 && Boolean(emptyText)
  const choose = (value: string) => {
    setOpen(false)
    onChoose(value)
  }

  return (
    <div className={[styles.box, field ? styles.field : '', className].filter(Boolean).join(' ')} onPointerEnter={onPointerEnter}>
      {icon && (
        <span className={styles.icon} aria-hidden>
          {icon}
        </span>
      )}
      <input
        type="text"
        id={inputId}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        aria-required={ariaRequired || undefined}
        role="combobox"
        className={styles.input}
        aria-label={label}
        aria-expanded={expanded}
        aria-controls={field && !expanded ? undefined : `${id}-list`}
        aria-autocomplete="list"
        aria-activedescendant={expanded && active >= 0 ? `${id}-${active}` : undefined}
        placeholder={placeholder}
        value={query}
        disabled={disabled}
        autoComplete="off"
        onFocus={onFocus}
        onBlur={() => setOpen(false)}
        onClick={() => field && setOpen(true)}
        onChange={(e) => {
          onQueryChange(e.target.value)
          setOpen(true)
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault()
            setOpen(true)
            // A form's select opens on the first arrow at what it holds (the library's did), so
            // that Arrow Down then Enter does not take the next option unseen.
            if (field && activateFirst && !expanded) return
            if (options.length) setActive((a) => (e.key === 'ArrowDown' ? (a + 1) % options.length : a <= 0 ? options.length - 1 : a - 1))
          } else if (e.key === 'Enter' && expanded && options[active]) {
            // Only an option the user has made active (the APG's combobox): Enter never takes
            // one they have not seen chosen.
            e.preventDefault()
            choose(options[active].value)
          } else if (e.key === 'Enter' && field && !expanded) {
            // A form's select: Enter opens its list, as the library's did; it never sends the
            // form from here (a charge added before its quantity and price were set).
            e.preventDefault()
            setOpen(true)
          } else if (e.key === 'Escape') {
            // A search box empties on a second Escape; a form's select keeps what was chosen.
            // Closing the list takes the key: the dialog around stays open.
            if (expanded) {
              e.preventDefault()
              setOpen(false)
            } else if (!field) onQueryChange('')
          }
        }}
      />
      {/* A form's list is there only while open: its name is the field's, found once. */}
      {(!field || expanded) && (
      <ul id={`${id}-list`} role="listbox" aria-label={label} className={styles.list} hidden={!expanded}>
        {options.map((o, i) => (
          <Fragment key={o.value}>
          {o.group && o.group !== options[i - 1]?.group && (
            // For the eye: the options say themselves, and a heading is not one to choose.
            <li className={styles.group} aria-hidden>
              {o.group}
            </li>
          )}
          <li
            id={`${id}-${i}`}
            role="option"
            aria-selected={i === active}
            aria-label={renderOption ? o.label : undefined}
            title={o.label}
            className={styles.option}
            // Chosen on the press, before the box's blur closes the list.
            onPointerDown={(e) => e.preventDefault()}
            onClick={() => choose(o.value)}
            onPointerMove={() => setActive(i)}
          >
            {renderOption ? renderOption(o) : o.label}
          </li>
          </Fragment>
        ))}
      </ul>
      )}
      {/* Seen by the eye; the status below says it. */}
      {empty && (
        <div className={styles.empty} aria-hidden>
          {emptyText}
        </div>
      )}
      {/* Present from the start, so that what is put in it is announced (WCAG 4.1.3); only
          where there is something to say (a search's count or its "nothing found"), not in a
          form's select, whose page has its own status (a visit's "Saved at"). */}
      {!quiet && (emptyText || countText) && (
        <div role="status" className="visually-hidden">
          {empty ? emptyText : expanded && countText ? countText(options.length) : ''}
        </div>
      )}
    </div>
  )
}
