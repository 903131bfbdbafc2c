// A view names what it shows ("Anderson Mike") so that its tab and the page title can say
// it: "Anderson Mike · Visit". The shell provides the setter for each kept view.
import { createContext, useContext, useEffect } from 'react'

export const ViewSubjectContext = createContext<(subject: string | undefined) => void>(() => {})

/** Names the current view's subject; its tab keeps the name after the view unmounts (an address shows one subject). */
export function useViewSubject(subject: string | undefined) {
  const set = useContext(ViewSubjectContext)
  useEffect(() => {
    if (subject) set(subject)
  }, [set, subject])
}

// Whether the view is the one on screen: a kept view behind another tab keeps its state,
// but what it draws over the whole page (a drawer, a dialog) must not show over the others.
export const ViewActiveContext = createContext(true)

/** Whether the current view is the one on screen. */
export const useViewActive = () => useContext(ViewActiveContext)
