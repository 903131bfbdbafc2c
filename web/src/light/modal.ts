// What a light modal part (the drawer, the dialog) does the same way: it takes focus as it
// opens (the first field, else its first control), keeps Tab inside itself, closes on Escape
// wherever focus is (after a click on its words focus is on <body>, not in the panel; a control
// inside that uses Escape itself, an open menu, stops the key first), and gives focus back to
// what had it before.
import { useEffect, useRef, type KeyboardEvent } from 'react'
import { cycleTab } from './focus'

/** The z-index of the light dialog and drawer (Dialog.module.css, Drawer.module.css): a part on the library inside one opens its popups above it (<WithAntd layer>). */
export const MODAL_LAYER = 1003

export const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'
const FIELD = 'input:not([disabled]):not([type=hidden]), select:not([disabled]), textarea:not([disabled])'

/** The panel's ref and its keydown handler; `firstField` puts focus on the first field rather than the first control. */
export function useModal<T extends HTMLElement>(open: boolean, onClose: () => void, firstField = false) {
  const panel = useRef<T>(null)
  useEffect(() => {
    if (!open) return
    const before = document.activeElement as HTMLElement | null
    const p = panel.current
    ;((firstField && p?.querySelector<HTMLElement>(`[data-autofocus], ${FIELD}`)) || p?.querySelector<HTMLElement>(FOCUSABLE))?.focus()
    return () => before?.focus()
  }, [open, firstField])
  const closeRef = useRef(onClose)
  useEffect(() => {
    closeRef.current = onClose
  })
  useEffect(() => {
    if (!open) return
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'Escape' && !e.defaultPrevented) closeRef.current()
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [open])
  /** Tab and Shift+Tab go round inside the panel. */
  const onKeyDown = (e: KeyboardEvent) => cycleTab(e, [...(panel.current?.querySelectorAll<HTMLElement>(FOCUSABLE) ?? [])])
  return { panel, onKeyDown }
}
