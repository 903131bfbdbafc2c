// The sidebar's menu, drawn as the library's dark inline menu was: pages (links, the current one
// marked aria-current="page") and groups that open and close. Keyboard as in the WAI-ARIA menu
// pattern: one tab stop, the arrow keys, Home and End move; ArrowRight opens a group and enters
// it, ArrowLeft goes back to the group. Collapsed to icons, a page shows its name in a tooltip
// and a group its pages in a flyout beside the sidebar, on hover, on keyboard focus and on Enter;
// Escape hides either.
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent, type ReactNode } from 'react'
import { Link } from 'react-router'
import { RightIcon } from '../../light/icons'
import { useTooltip } from '../../light/Tooltip'
import type { SideItem } from './menu'
import styles from './SideMenu.module.css'

export interface SideMenuProps {
  items: SideItem[]
  /** The current page's path. */
  selected: string
  collapsed: boolean
  /** The groups open (in the expanded sidebar). */
  openKeys: string[]
  onOpenChange: (keys: string[]) => void
  /** After a page is chosen (the mobile sidebar closes). */
  onNavigate: () => void
  label: string
}

const holds = (item: SideItem, key: string): boolean => !!item.children?.some((c) => c.key === key || holds(c, key))

/** The menu items a user can reach now: not inside a closed group. */
const reachable = (root: HTMLElement | null) => [...(root?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? [])].filter((el) => !el.parentElement?.closest('[hidden]'))

/** A group's list item, by the group's key. */
const groupOf = (root: HTMLElement | null, key: string) => [...(root?.querySelectorAll<HTMLElement>('[data-group]') ?? [])].find((el) => el.dataset.group === key)

export function SideMenu({ items, selected, collapsed, openKeys, onOpenChange, onNavigate, label }: SideMenuProps) {
  const id = useId()
  const root = useRef<HTMLUListElement>(null)
  const [tabKey, setTabKey] = useState<string>()
  const [flyout, setFlyout] = useState<{ key: string; top: number }>()
  const closing = useRef<ReturnType<typeof setTimeout>>(undefined)
  // A group opened from the keyboard: its first page takes focus once it shows.
  const enter = useRef<string>(undefined)
  // Whether focus comes from a press (the hover has opened the flyout) or from the keyboard.
  const pressed = useRef(false)

  const isOpen = (key: string) => (collapsed ? flyout?.key === key : openKeys.includes(key))
  const visible = items.flatMap((i) => [i.key, ...(i.children && isOpen(i.key) ? i.children.map((c) => c.key) : [])])
  const tabStop = [tabKey, selected, items.find((i) => holds(i, selected))?.key].find((k) => k && visible.includes(k)) ?? items[0]?.key

  const openFlyout = (key: string, li: HTMLElement) => {
    clearTimeout(closing.current)
    if (flyout?.key !== key) setFlyout({ key, top: li.getBoundingClientRect().top })
  }
  const setOpen = (key: string, open: boolean) => {
    if (collapsed) {
      if (!open) setFlyout(undefined)
      return
    }
    onOpenChange(open ? [...openKeys, key] : openKeys.filter((k) => k !== key))
  }

  const focusFirst = (key: string) => groupOf(root.current, key)?.querySelector('ul')?.querySelector<HTMLElement>('[role="menuitem"]')?.focus()
  useEffect(() => {
    if (!enter.current) return
    focusFirst(enter.current)
    enter.current = undefined
  })
  /** Opens a group (if it is not) and puts focus on its first page. */
  const enterGroup = (key: string, li: HTMLElement) => {
    if (isOpen(key)) return focusFirst(key)
    enter.current = key
    if (collapsed) openFlyout(key, li)
    else setOpen(key, true)
  }
  useEffect(() => () => clearTimeout(closing.current), [])
  // Escape closes a flyout opened by hovering, wherever focus is (WCAG 1.4.13); from inside the
  // menu, its own Escape (below) has done so and stopped the key.
  const flyoutOpen = flyout !== undefined
  useEffect(() => {
    if (!flyoutOpen) return
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape') return
      clearTimeout(closing.current)
      setFlyout(undefined)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [flyoutOpen])

  const onKeyDown = (e: KeyboardEvent) => {
    const all = reachable(root.current)
    const at = all.indexOf(document.activeElement as HTMLElement)
    const el = all[at]
    const group = el?.dataset.groupKey
    const parent = el?.closest<HTMLElement>('[data-group]')?.dataset.group
    const move = (i: number) => all[(i + all.length) % all.length]?.focus()
    if (e.key === 'ArrowDown') move(at + 1)
    else if (e.key === 'ArrowUp') move(at - 1)
    else if (e.key === 'Home') move(0)
    else if (e.key === 'End') move(-1)
    else if (e.key === 'ArrowRight' && group) enterGroup(group, el.parentElement!)
    else if ((e.key === 'ArrowLeft' || (e.key === 'Escape' && collapsed)) && parent) {
      groupOf(root.current, parent)?.querySelector<HTMLElement>('[data-group-key]')?.focus()
      if (collapsed) setFlyout(undefined)
    } else return
    e.preventDefault()
    e.stopPropagation()
  }

  const leaf = (item: SideItem, top: boolean) => {
    const iconOnly = collapsed && top
    return (
      <Holder key={item.key} tip={iconOnly ? item.label : undefined}>
        <Link
          to={item.key}
          role="menuitem"
          tabIndex={item.key === tabStop ? 0 : -1}
          aria-current={item.key === selected ? 'page' : undefined}
          className={[styles.item, top ? '' : styles.subItem, item.key === selected ? styles.selected : ''].join(' ')}
          onFocus={() => setTabKey(item.key)}
          onClick={(e) => {
            // A flyout's page hides with its flyout: focus goes back to the group's button (as
            // a press, which does not open the flyout again) rather than to the page's start.
            if (collapsed && !top) {
              pressed.current = true
              e.currentTarget.closest<HTMLElement>('[data-group]')?.querySelector<HTMLElement>('[data-group-key]')?.focus()
              pressed.current = false
            }
            setFlyout(undefined)
            onNavigate()
          }}
        >
          {item.icon && (
            <span className={styles.icon} aria-hidden>
              {item.icon}
            </span>
          )}
          <span className={iconOnly ? 'visually-hidden' : styles.label}>{item.label}</span>
        </Link>
      </Holder>
    )
  }

  const group = (item: SideItem) => {
    const open = isOpen(item.key)
    const listId = `${id}-${item.key}`
    return (
      <li
        key={item.key}
        role="none"
        data-group={item.key}
        onMouseEnter={collapsed ? (e) => openFlyout(item.key, e.currentTarget) : undefined}
        onMouseLeave={collapsed ? () => (closing.current = setTimeout(() => setFlyout((f) => (f?.key === item.key ? undefined : f)), 200)) : undefined}
        // Focus leaving the group closes its flyout (not another's, opened meanwhile).
        onBlur={collapsed ? (e) => !e.currentTarget.contains(e.relatedTarget) && setFlyout((f) => (f?.key === item.key ? undefined : f)) : undefined}
      >
        <button
          type="button"
          role="menuitem"
          aria-haspopup={collapsed ? 'menu' : undefined}
          aria-expanded={open}
          aria-controls={listId}
          tabIndex={item.key === tabStop ? 0 : -1}
          data-group-key={item.key}
          className={[styles.item, holds(item, selected) ? styles.holdsSelected : ''].join(' ')}
          onPointerDown={() => (pressed.current = true)}
          onFocus={(e) => {
            setTabKey(item.key)
            if (collapsed && !pressed.current) openFlyout(item.key, e.currentTarget.parentElement!)
            pressed.current = false
          }}
          onClick={(e) => {
            if (!collapsed) return setOpen(item.key, !open)
            // From the keyboard (Enter, Space) the flyout's first page takes focus.
            if (e.detail === 0) enterGroup(item.key, e.currentTarget.parentElement!)
            else openFlyout(item.key, e.currentTarget.parentElement!)
          }}
        >
          {item.icon && (
            <span className={styles.icon} aria-hidden>
              {item.icon}
            </span>
          )}
          <span className={collapsed ? 'visually-hidden' : styles.label}>{item.label}</span>
          {!collapsed && (
            <span className={open ? `${styles.arrow} ${styles.arrowOpen}` : styles.arrow} aria-hidden>
              <RightIcon />
            </span>
          )}
        </button>
        <Flyout id={listId} label={item.label} hidden={!open} top={collapsed && open ? flyout?.top : undefined}>
          {item.children!.map((c) => leaf(c, false))}
        </Flyout>
      </li>
    )
  }

  return (
    <ul ref={root} role="menu" aria-label={label} className={[styles.menu, collapsed ? styles.collapsed : ''].join(' ')} onKeyDown={onKeyDown}>
      {items.map((item) => (item.children ? group(item) : leaf(item, true)))}
    </ul>
  )
}

/** A group's pages: inline under it, or (top given) a flyout beside the collapsed sidebar, kept inside the window. */
function Flyout({ id, label, hidden, top, children }: { id: string; label: string; hidden: boolean; top?: number; children: ReactNode }) {
  const ref = useRef<HTMLUListElement>(null)
  const [shift, setShift] = useState(0)
  useLayoutEffect(() => {
    if (top === undefined || !ref.current) return
    const over = top + ref.current.offsetHeight + 8 - window.innerHeight
    setShift(Math.min(Math.max(0, over), top - 8))
  }, [top])
  return (
    <ul ref={ref} role="group" id={id} aria-label={label} hidden={hidden} className={top === undefined ? styles.sub : styles.flyout} style={top === undefined ? undefined : { top: top - shift }}>
      {children}
    </ul>
  )
}

/**
 * A page's list item; collapsed to its icon, it holds the page's name in a tooltip beside the
 * sidebar (for the eye: the link is named by the same words).
 */
function Holder({ tip, children }: { tip?: string; children: ReactNode }) {
  const { anchor, tooltip } = useTooltip(tip ?? '', { placement: 'right', disabled: !tip })
  if (!tip) return <li role="none">{children}</li>
  return (
    <li role="none" className={styles.holder} {...anchor}>
      {children}
      {tooltip}
    </li>
  )
}
