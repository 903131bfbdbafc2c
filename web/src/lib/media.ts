import { useSyncExternalStore } from 'react'

/** Below this width a screen is a phone's: lists stack what a table would put side by side. */
export const PHONE = '(max-width: 767px)'

/** Whether the window matches a media query, following it when that changes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', changed)
      return () => list.removeEventListener('change', changed)
    },
    () => window.matchMedia(query).matches,
    () => false,
  )
}
