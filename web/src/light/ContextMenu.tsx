// A context menu: the light menu at the pointer (a right-click) or beside the element it is
// for (Shift+F10 or the ContextMenu key), kept inside the window. Escape and choosing an item
// return focus to that element.
import { useLayoutEffect, useRef, useState, type KeyboardEvent, type MouseEvent } from 'react'
import { Menu, type MenuItem } from './Menu'
import styles from './ContextMenu.module.css'

export interface ContextMenuAt {
  x: number
  y: number
  /** Where focus goes back to when the menu closes by Escape or a choice. */
  returnTo: HTMLElement | null
}

/** Where a context menu opens for a right-click, or for the keyboard (beside the element). */
export function contextMenuAt(e: MouseEvent<HTMLElement> | KeyboardEvent<HTMLElement>): ContextMenuAt {
  const el = e.currentTarget
  // A keyboard's contextmenu event has no pointer position (0, 0): the menu goes under the element.
  if ('clientX' in e && (e.clientX !== 0 || e.clientY !== 0)) return { x: e.clientX, y: e.clientY, returnTo: el }
  const r = el.getBoundingClientRect()
  return { x: r.left, y: r.bottom, returnTo: el }
}

/** Whether a key press asks for the context menu: Shift+F10 or the ContextMenu key. */
export const isContextMenuKey = (e: KeyboardEvent) => (e.key === 'F10' && e.shiftKey) || e.key === 'ContextMenu'

export interface ContextMenuProps {
  at: ContextMenuAt
  items: MenuItem[]
  label: string
  onSelect: (key: string) => void
  onClose: () => void
}

export function ContextMenu({ at, items, label, onSelect, onClose }: ContextMenuProps) {
  const holder = useRef<HTMLDivElement>(null)
  const [pos, setPos] = useState({ left: at.x, top: at.y })
  // Moved back inside the window when it would spill past the right or bottom edge.
  useLayoutEffect(() => {
    const r = holder.current?.getBoundingClientRect()
    if (!r) return
    const left = Math.max(0, Math.min(at.x, window.innerWidth - r.width - 4))
    const top = Math.max(0, Math.min(at.y, window.innerHeight - r.height - 4))
    setPos((p) => (p.left === left && p.top === top ? p : { left, top }))
  }, [at.x, at.y])
  const close = (returnFocus: boolean) => {
    onClose()
    if (returnFocus) at.returnTo?.focus()
  }
  return (
    <div ref={holder} className={styles.holder} style={pos}>
      <Menu
        items={items}
        label={label}
        onSelect={(key) => {
          close(true)
          onSelect(key)
        }}
        onClose={(reason) => close(reason === 'escape')}
      />
    </div>
  )
}
