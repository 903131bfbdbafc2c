// A menu button (the WAI-ARIA menu button pattern): a button with aria-haspopup that opens a
// light menu under it. Enter, Space and ArrowDown open it on its first item, ArrowUp on its
// last; choosing an item or Escape closes it and focus returns to the button; a click outside
// closes it and focus goes where the click put it.
import { useId, useRef, useState, type ReactNode } from 'react'
import { buttonClass } from './Button'
import { Menu, type MenuItem } from './Menu'
import { useTooltip } from './Tooltip'
import styles from './MenuButton.module.css'

export interface MenuButtonProps {
  /** The button's name (it may show only an icon). */
  label: string
  /** What the button shows. */
  children: ReactNode
  items: MenuItem[]
  onSelect: (key: string) => void
  className?: string
  /** Which edge of the button the menu lines up with. */
  align?: 'start' | 'end'
  /** A tooltip on hover and focus, for a button that shows only an icon. */
  tooltip?: boolean
  /** How the button is drawn: an icon button (the default), or a small light button with its text (a table row's "More"). */
  look?: 'icon' | 'small'
}

export function MenuButton({ label, children, items, onSelect, className, align = 'end', tooltip, look = 'icon' }: MenuButtonProps) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false)
  const button = useRef<HTMLButtonElement>(null)
  const id = useId()
  // Hidden while the menu is open, which stands where the tooltip would.
  const tip = useTooltip(label, { disabled: !tooltip || Boolean(open) })
  const close = (returnFocus: boolean) => {
    setOpen(false)
    if (returnFocus) button.current?.focus()
  }
  return (
    <span className={styles.wrap} {...(tooltip ? tip.anchor : {})}>
      <button
        ref={button}
        type="button"
        className={[look === 'small' ? buttonClass('default', true) : styles.button, className].filter(Boolean).join(' ')}
        aria-label={label}
        aria-haspopup="menu"
        aria-expanded={Boolean(open)}
        aria-controls={open ? id : undefined}
        // Pressed while open, the menu's outside press closes it first; this must not reopen it.
        onPointerDown={(e) => open && e.stopPropagation()}
        onClick={() => setOpen(open ? false : 'first')}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault()
            setOpen(e.key === 'ArrowDown' ? 'first' : 'last')
          }
        }}
      >
        {children}
      </button>
      {tooltip && tip.tooltip}
      {open && (
        <Menu
          id={id}
          items={items}
          focus={open}
          label={label}
          className={align === 'end' ? styles.end : styles.start}
          onSelect={(key) => {
            close(true)
            onSelect(key)
          }}
          onClose={(reason) => close(reason === 'escape')}
        />
      )}
    </span>
  )
}
