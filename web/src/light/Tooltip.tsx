// A light tooltip (WCAG 1.4.13): a real element beside its trigger, shown while the pointer is
// over the trigger or the tooltip itself (it is inside the same hover area, with no gap, so the
// pointer can move onto it) and while the trigger has keyboard focus. Escape hides it, wherever
// focus and the pointer are, until the pointer leaves or focus moves. A trigger already named
// by the same words (an icon button's aria-label) leaves the tooltip out of the accessibility
// tree; otherwise the trigger is described by it.
import { useEffect, useId, useState, type FocusEvent, type ReactNode } from 'react'
import styles from './Tooltip.module.css'

export type TooltipPlacement = 'bottom-start' | 'bottom-end' | 'right'

export interface TooltipOptions {
  placement?: TooltipPlacement
  /** Whether the trigger's name is already these words: then the tooltip is for the eye only. */
  named?: boolean
  /** Off (a menu open under the button): never shown. */
  disabled?: boolean
}

export interface Tooltip {
  /** Spread on the element that holds the trigger and the tooltip (position: relative). */
  anchor: {
    onPointerEnter: () => void
    onPointerLeave: () => void
    onFocus: (e: FocusEvent<HTMLElement>) => void
    onBlur: (e: FocusEvent<HTMLElement>) => void
  }
  /** The tooltip, to render inside the anchor after the trigger. */
  tooltip: ReactNode
  /** For the trigger's aria-describedby, when it is not named by the same words. */
  describedBy?: string
}

/** Focus the user can see (from the keyboard), not the focus a click leaves on a button. */
const focusVisible = (el: Element) => {
  try {
    return el.matches(':focus-visible')
  } catch {
    return true
  }
}

export function useTooltip(text: string, { placement = 'bottom-end', named = true, disabled = false }: TooltipOptions = {}): Tooltip {
  const id = useId()
  const [hovered, setHovered] = useState(false)
  const [focused, setFocused] = useState(false)
  const [dismissed, setDismissed] = useState(false)
  const shown = (hovered || focused) && !dismissed && !disabled

  // Escape hides a tooltip shown, wherever focus is (a document listener, not the trigger's).
  useEffect(() => {
    if (!shown) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setDismissed(true)
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [shown])

  const anchor: Tooltip['anchor'] = {
    onPointerEnter: () => {
      setHovered(true)
      setDismissed(false)
    },
    onPointerLeave: () => {
      setHovered(false)
      setDismissed(false)
    },
    onFocus: (e) => {
      setFocused(focusVisible(e.target))
      setDismissed(false)
    },
    onBlur: (e) => {
      if (!e.currentTarget.contains(e.relatedTarget)) setFocused(false)
    },
  }
  const tooltip = (
    <span role="tooltip" id={id} aria-hidden={named || undefined} hidden={!shown} className={[styles.tooltip, styles[placement]].join(' ')} data-emr-tooltip="">
      <span className={styles.bubble}>{text}</span>
    </span>
  )
  return { anchor, tooltip, describedBy: named ? undefined : id }
}
