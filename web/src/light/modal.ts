// What a light modal part (the drawer, the dialog) does the same way: it takes focus as it
// opens (the first field, else its first control), keeps Tab inside itself, closes on Escape
// wherever focus is (after a click on its words focus is on <body>, not in the panel; a control
// inside that uses Escape itself, an open menu, stops the key first), and gives focus back to
// what had it before. Parts open at once stack in the order they opened: the last is drawn on
// top and Escape closes it alone (a critical result's dialog opening over a visit's dialog is
// seen, and one Escape never closes both, nor the one beneath while the top one is sending).
import { useEffect, useRef, type KeyboardEvent } from 'react'
import { cycleTab } from './focus'

/** The z-index of the light dialog and drawer (Dialog.module.css, Drawer.module.css): a part on the library inside one opens its popups above it (<WithAntd layer>). */
export const MODAL_LAYER = 1003

export const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'
const FIELD = 'input:not([disabled]):not([type=hidden]):not([type=radio]):not([tabindex="-1"]), input[type=radio]:checked:not([disabled]), select:not([disabled]), textarea:not([disabled])'

/** What Tab reaches in root: no element taken out of the order (tabindex -1), and of a radio group only its chosen radio. */
export function tabbable(root: HTMLElement | null): HTMLElement[] {
  if (!root) return []
  return [...root.querySelectorAll<HTMLElement>(FOCUSABLE)].filter((el) => {
    if (el.tabIndex < 0) return false
    if (el instanceof HTMLInputElement && el.type === 'radio' && !el.checked) return ![...root.querySelectorAll<HTMLInputElement>('input[type=radio]:checked')].some((r) => r.name === el.name)
    return true
  })
}

/** The modal parts open now, in the order they opened. */
const open: symbol[] = []

/**
 * The panel's ref and its keydown handler; `firstField` puts focus on the first field rather
 * than the first control. The panel's parent (the part's root) is raised above the parts opened
 * before it as it opens.
 */
export function useModal<T extends HTMLElement>(isOpen: boolean, onClose: () => void, firstField = false) {
  const panel = useRef<T>(null)
  useEffect(() => {
    if (!isOpen) return
    const before = document.activeElement as HTMLElement | null
    const p = panel.current
    ;((firstField && p?.querySelector<HTMLElement>(`[data-autofocus], ${FIELD}`)) || tabbable(p)[0])?.focus()
    return () => before?.focus()
  }, [isOpen, firstField])
  const closeRef = useRef(onClose)
  useEffect(() => {
    closeRef.current = onClose
  })
  useEffect(() => {
    if (!isOpen) return
    const me = Symbol('modal')
    open.push(me)
    const root = panel.current?.parentElement
    root?.style.setProperty('z-index', String(MODAL_LAYER + open.length - 1))
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key !== 'Escape' || e.defaultPrevented || open[open.length - 1] !== me) return
      e.preventDefault()
      closeRef.current()
    }
    document.addEventListener('keydown', onKey)
    return () => {
      document.removeEventListener('keydown', onKey)
      open.splice(open.indexOf(me), 1)
    }
  }, [isOpen])
  /** Tab and Shift+Tab go round inside the panel. */
  const onKeyDown = (e: KeyboardEvent) => cycleTab(e, tabbable(panel.current))
  return { panel, onKeyDown }
}
