// The component library's provider (its locale, sizes, theme, and the App that gives screens
// message, modal and notification) is loaded only where a part built on the library shows: the
// shell puts it here (app/shell/AntdProvider.tsx, fetched with the library's style sheet when
// first needed), and a screen or a feature's part that is not light is wrapped in <WithAntd>.
// Outside the shell (a component test) it leaves its children as they are.
import { createContext, useContext, type ReactNode } from 'react'
import { createStore } from './store'

/** Wraps a part in the library's provider: the shell's, or none. */
export const AntdHostContext = createContext<(children: ReactNode) => ReactNode>((children) => children)

export function WithAntd({ children }: { children: ReactNode }) {
  return useContext(AntdHostContext)(children)
}

// Whether a part built on the library has shown in this page's life: the shell then keeps the
// library's toast host beside the page area (app/shell/AntdProvider.tsx, ToastHost).
const shown = createStore(false)

/** Called by the library's provider as it first shows. */
export const markLibraryShown = () => shown.set(true)

export const useLibraryShown = shown.use
