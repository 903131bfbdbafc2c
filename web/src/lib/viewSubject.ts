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
