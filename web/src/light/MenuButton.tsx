// A menu button (the WAI-ARIA menu button pattern): a button with aria-haspopup that opens a
// light menu under it. Enter, Space and ArrowDown open it on its first item, ArrowUp on its
// last; choosing an item or Escape closes it and focus returns to the button; a click outside
// closes it and focus goes where the click put it.
import { useEffect, useId, useLayoutEffect, useRef, useState, type CSSProperties, type ReactNode } from 'react'
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
  /**
   * How the button is drawn: an icon button (the default), a small light button with its text
   * (a table row's "More"), or a light button of the usual size (a screen's "Apps" among its
   * other buttons).
   */
  look?: 'icon' | 'small' | 'button'
  /**
   * The menu is placed in the window (position: fixed, under the button) rather than beside the
   * button, so that a box that scrolls or clips (a table's) does not cut it off; it closes when
   * the page scrolls, which would leave it behind (focus back on the button if it was in the
   * menu), but not when the menu itself scrolls. It lines up with the button's end (align end)
   * only where the button is in the window's right half, else with its start; it opens above
   * the button where it does not fit under it and there is more room above, and it is never
   * taller or wider than the room it has (it scrolls), so that each item can be reached in a
   * short or narrow window.
   */
  floating?: boolean
}

/** A floating menu's gap from its button, and its least distance from the window's edges (px). */
const GAP = 4
const MARGIN = 8

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
  // A floating menu's place in the window, taken as it opens (the button's box kept to flip it).
  const [place, setPlace] = useState<CSSProperties>()
  const at = useRef<DOMRect>(undefined)
  const show = (to: 'first' | 'last') => {
    const r = button.current?.getBoundingClientRect()
    at.current = r
    // Lined up with the button's edge on the side of the window it has room on (a phone's narrow window).
    const end = align === 'end' && r ? r.right > window.innerWidth / 2 : false
    if (floating && r)
      setPlace({
        position: 'fixed',
        top: r.bottom + GAP,
        bottom: 'auto',
        maxHeight: Math.max(window.innerHeight - r.bottom - GAP - MARGIN, 0),
        maxWidth: `calc(100vw - ${2 * MARGIN}px)`,
        overflow: 'auto',
        boxSizing: 'border-box',
        ...(end ? { right: window.innerWidth - r.right, left: 'auto' } : { left: r.left, right: 'auto' }),
      })
    setOpen(to)
  }
  // Drawn, a floating menu taller than the room under the button opens above it if there is more room there.
  useLayoutEffect(() => {
    const r = at.current
    const menu = document.getElementById(id)
    if (!floating || !open || !r || !menu) return
    const below = window.innerHeight - r.bottom - GAP - MARGIN
    const above = r.top - GAP - MARGIN
    if (menu.scrollHeight > below && above > below) setPlace((p) => ({ ...p, top: 'auto', bottom: window.innerHeight - r.top + GAP, maxHeight: above }))
  }, [floating, open, id])
  useEffect(() => {
    if (!floating || !open) return
    const scrolled = (e: Event) => {
      const menu = document.getElementById(id)
      // The menu's own scroll (a long menu in a short window) leaves it open.
      if (menu && e.target instanceof Node && menu.contains(e.target)) return
      const inside = Boolean(menu?.contains(document.activeElement))
      setOpen(false)
      // Focus that was in the menu goes back to the button, not to the page's <body>.
      if (inside) button.current?.focus({ preventScroll: true })
    }
    window.addEventListener('scroll', scrolled, true)
    return () => window.removeEventListener('scroll', scrolled, true)
  }, [floating, open, id])
  return (
    <span className={styles.wrap} {...(tooltip ? tip.anchor : {})}>
      <button
        ref={button}
        type="button"
        className={[look === 'icon' ? styles.button : buttonClass('default', look === 'small'), className].filter(Boolean).join(' ')}
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
