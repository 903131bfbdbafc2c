// The phone's open sidebar is a modal (the APG's dialog pattern): the rest of the layout is
// inert behind it (the layout sets inert from `modal`), Escape and the backdrop close it, and
// when it closes focus goes back to the toggle that opened it or, after a page was chosen in
// it, to the page (<main>), never to the document's start with the hidden item that had it.
import { useCallback, useEffect, useRef } from 'react'
import { SIDEBAR_TOGGLE_ID, useShell } from './state'

export function useSidebarModal() {
  const { sidebarOpened, mobile, closeSidebar } = useShell()
  const modal = mobile && sidebarOpened
  const focusAfter = useRef<'toggle' | 'main'>('toggle')
  /** Closes the phone's sidebar; focus goes to the toggle, or to the page. */
  const closeModal = useCallback(
    (to: 'toggle' | 'main') => {
      focusAfter.current = to
      closeSidebar()
    },
    [closeSidebar],
  )
  const wasModal = useRef(modal)
  useEffect(() => {
    // Only when the phone's sidebar closes, not when a wider window takes the desktop layout.
    if (wasModal.current && !modal && mobile) document.getElementById(focusAfter.current === 'main' ? 'main' : SIDEBAR_TOGGLE_ID)?.focus()
    wasModal.current = modal
    focusAfter.current = 'toggle'
  }, [modal, mobile])
  useEffect(() => {
    if (!modal) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closeModal('toggle')
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [modal, closeModal])
  return { modal, closeModal }
}
