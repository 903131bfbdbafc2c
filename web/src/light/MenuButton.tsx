// A menu button (the WAI-ARIA menu button pattern): a button with aria-haspopup that opens a
// light menu under it. Enter, Space and ArrowDown open it on its first item, ArrowUp on its
// last; choosing an item or Escape closes it and focus returns to the button; a click outside
// closes it and focus goes where the click put it.
import { useEffect, useId, useRef, useState, type CSSProperties, type ReactNode } from 'react'
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
  /**
   * The menu is placed in the window (position: fixed, under the button) rather than beside the
   * button, so that a box that scrolls or clips (a table's) does not cut it off; it closes when
   * the page scrolls, which would leave it behind. It lines up with the button's end (align
   * end) only where the button is in the window's right half, else with its start.
   */
  floating?: boolean
}

export function MenuButton({ label, children, items, onSelect, className, align = 'end', tooltip, look = 'icon', floating = false }: MenuButtonProps) {
  const [open, setOpen] = useState<false | 'first' | 'last'>(false)
  const button = useRef<HTMLButtonElement>(null)
  const id = useId()
  // Hidden while the menu is open, which stands where the tooltip would.
  const tip = useTooltip(label, { disabled: !tooltip || Boolean(open) })
  const close = (returnFocus: boolean) => {
    setOpen(false)
    if (returnFocus) button.current?.focus()
  }
  // A floating menu's place in the window, taken as it opens.
  const [place, setPlace] = useState<CSSProperties>()
  const show = (at: 'first' | 'last') => {
    const r = button.current?.getBoundingClientRect()
    // Lined up with the button's edge on the side of the window it has room on (a phone's narrow window).
    const end = align === 'end' && r ? r.right > window.innerWidth / 2 : false
    if (floating && r) setPlace({ position: 'fixed', top: r.bottom + 4, bottom: 'auto', ...(end ? { right: window.innerWidth - r.right, left: 'auto' } : { left: r.left, right: 'auto' }) })
    setOpen(at)
  }
  useEffect(() => {
    if (!floating || !open) return
    const scrolled = () => setOpen(false)
    window.addEventListener('scroll', scrolled, true)
    return () => window.removeEventListener('scroll', scrolled, true)
  }, [floating, open])
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
        onClick={() => (open ? setOpen(false) : show('first'))}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
            e.preventDefault()
            show(e.key === 'ArrowDown' ? 'first' : 'last')
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
          style={floating ? place : undefined}
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
