// A light menu (the WAI-ARIA menu pattern): a list of items that takes focus when it opens,
// moved through with the arrow keys, Home and End, chosen with Enter or Space (or a click), and
// closed with Escape or Tab. The menu button and the context menu show it; they place it and say
// where focus goes back to when it closes.
import { useEffect, useRef, type CSSProperties, type KeyboardEvent, type ReactNode } from 'react'
import { CheckIcon } from './icons'
import styles from './Menu.module.css'

export interface MenuItem {
  key: string
  label: ReactNode
  icon?: ReactNode
  disabled?: boolean
  danger?: boolean
  /** For a choice of one (a language, a size): the item is a menuitemradio, checked or not. */
  checked?: boolean
  /** A line above the item, setting it apart from those before. */
  dividerBefore?: boolean
}

export interface MenuProps {
  items: MenuItem[]
  onSelect: (key: string) => void
  /** Why it closes: Escape returns focus to what opened it; a click outside or Tab leave it where it goes. */
  onClose: (reason: 'escape' | 'outside' | 'tab') => void
  /** Which item takes focus when the menu opens. */
  focus?: 'first' | 'last'
  label?: string
  labelledBy?: string
  id?: string
  className?: string
  style?: CSSProperties
}

/** The items that can take focus (a disabled one is passed over, as the pattern says). */
const enabledItems = (menu: HTMLElement | null) => [...(menu?.querySelectorAll<HTMLElement>('[data-menu-item]:not([aria-disabled="true"])') ?? [])]

export function Menu({ items, onSelect, onClose, focus = 'first', label, labelledBy, id, className, style }: MenuProps) {
  const ref = useRef<HTMLUListElement>(null)
  const itemsOf = () => enabledItems(ref.current)

  useEffect(() => {
    const all = enabledItems(ref.current)
    ;(focus === 'last' ? all.at(-1) : all[0])?.focus()
  }, [focus])

  // A press anywhere outside the menu closes it (the opener handles its own presses).
  const closeRef = useRef(onClose)
  useEffect(() => {
    closeRef.current = onClose
  })
  useEffect(() => {
    const down = (e: PointerEvent) => {
      if (ref.current && !ref.current.contains(e.target as Node)) closeRef.current('outside')
    }
    document.addEventListener('pointerdown', down, true)
    return () => document.removeEventListener('pointerdown', down, true)
  }, [])

  const onKeyDown = (e: KeyboardEvent) => {
    const all = itemsOf()
    const at = all.indexOf(document.activeElement as HTMLElement)
    const move = (i: number) => all[(i + all.length) % all.length]?.focus()
    if (e.key === 'ArrowDown') move(at + 1)
    else if (e.key === 'ArrowUp') move(at < 0 ? -1 : at - 1)
    else if (e.key === 'Home') move(0)
    else if (e.key === 'End') move(-1)
    else if (e.key === 'Escape') onClose('escape')
    else if (e.key === 'Tab') return onClose('tab')
    else if (e.key.length === 1 && /\S/.test(e.key)) {
      // Type-ahead: the next item whose text starts with the letter typed.
      const from = [...all.slice(at + 1), ...all.slice(0, at + 1)]
      from.find((el) => el.textContent?.trim().toLowerCase().startsWith(e.key.toLowerCase()))?.focus()
    } else return
    e.preventDefault()
    e.stopPropagation()
  }

  const choose = (item: MenuItem) => {
    if (!item.disabled) onSelect(item.key)
  }

  return (
    <ul ref={ref} role="menu" id={id} aria-label={label} aria-labelledby={labelledBy} className={[styles.menu, className].filter(Boolean).join(' ')} style={style} onKeyDown={onKeyDown} data-emr-menu="">
      {items.map((item) => (
        <li key={item.key} role="none" className={item.dividerBefore ? styles.divided : undefined}>
          <div
            role={item.checked === undefined ? 'menuitem' : 'menuitemradio'}
            aria-checked={item.checked}
            aria-disabled={item.disabled || undefined}
            tabIndex={-1}
            data-menu-item=""
            className={[styles.item, item.danger ? styles.danger : '', item.checked ? styles.checked : ''].join(' ')}
            onClick={() => choose(item)}
            onKeyDown={(e) => {
              if (e.key === 'Enter' || e.key === ' ') {
                e.preventDefault()
                choose(item)
              }
            }}
          >
            {item.checked !== undefined ? (
              // The checked one of a choice is marked by a tick, not by its colour alone (WCAG 1.4.1);
              // the others keep the column empty, so that the words line up.
              <span className={styles.icon} aria-hidden data-menu-check={item.checked ? '' : undefined}>
                {item.checked && <CheckIcon />}
              </span>
            ) : (
              item.icon !== undefined && (
                <span className={styles.icon} aria-hidden>
                  {item.icon}
                </span>
              )
            )}
            {item.label}
          </div>
        </li>
      ))}
    </ul>
  )
}
