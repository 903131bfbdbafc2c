// `react` in the app's build (web/vite.config.ts aliases it here; the tests keep the layer's own):
// Preact's React layer (docs/adr/0048) with one difference. React renders a transition — the
// router's navigation to another screen — in slices, letting the browser paint the click at
// once; Preact's layer runs it at once, so the whole next screen rendered before the click was
// painted (menu → patients: 56 → 288 ms INP at 4× slower CPU, measured). A transition here waits
// for the next paint, then renders: the click is painted, the screen follows.
import compat from 'preact/compat'

// @ts-expect-error -- the layer's types are written as one `export =`; its module exports each name.
export * from 'preact/compat'

export function startTransition(update: () => void) {
  requestAnimationFrame(() => setTimeout(update, 0))
}

// For the code that reads it off the default export (React.startTransition).
compat.startTransition = startTransition
export default compat
