// The component library's provider (its locale, sizes, theme, and the App that gives screens
// message, modal and notification) is loaded only where a part built on the library shows: the
// shell puts it here (app/shell/AntdProvider.tsx, fetched with the library's style sheet when
// first needed), and a screen or a feature's part that is not light is wrapped in <WithAntd>.
// Outside the shell (a component test) it leaves its children as they are.
import { createContext, useContext, type ReactNode } from 'react'
import { createStore } from './store'

/**
 * Wraps a part in the library's provider: the shell's, or none. `layer` is the z-index of a
 * light modal panel the part is shown in (light/modal.ts, MODAL_LAYER): the library's dialogs
 * and popups the part opens are stacked above it, not under its mask.
 */
export const AntdHostContext = createContext<(children: ReactNode, layer?: number) => ReactNode>((children) => children)

export function WithAntd({ children, layer }: { children: ReactNode; layer?: number }) {
  return useContext(AntdHostContext)(children, layer)
}

// Whether a part built on the library has shown in this page's life: the shell then keeps the
// library's toast host beside the page area (app/shell/AntdProvider.tsx, ToastHost).
const shown = createStore(false)

/** Called by the library's provider as it first shows. */
export const markLibraryShown = () => shown.set(true)

export const useLibraryShown = shown.use
