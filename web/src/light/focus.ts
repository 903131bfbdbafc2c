import type { KeyboardEvent } from 'react'

/**
 * Keeps Tab and Shift+Tab going round inside a modal part (a drawer, the phone's open sidebar):
 * from the last of `all` Tab goes to the first, from the first Shift+Tab to the last.
 */
export function cycleTab(e: KeyboardEvent, all: HTMLElement[]) {
  if (e.key !== 'Tab') return
  const [first, last] = [all[0], all.at(-1)]
  if (e.shiftKey && document.activeElement === first) {
    e.preventDefault()
    last?.focus()
  } else if (!e.shiftKey && document.activeElement === last) {
    e.preventDefault()
    first?.focus()
  }
}
