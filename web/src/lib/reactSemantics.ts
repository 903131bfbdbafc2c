// The app renders with Preact through its React-compatible layer (docs/adr/0048). Two things
// React does that the code relies on, and Preact does not, are done here; every entry and the
// tests' setup import this first.
import { options } from 'preact'
import type { ReactNode } from 'react'

// 1. Effects before the next event. Preact runs an effect after the browser paints (a frame
// later); React runs the effects of a render a click or a keystroke caused before the next event.
// An effect that subscribes a form's latest handler (the visit's draft telling its autosave) must
// have run before the next keystroke, or that keystroke is typed and not saved. So effects run as
// soon as the render that scheduled them is done (a microtask), before any next event.
options.requestAnimationFrame = (flush) => queueMicrotask(flush)

// 2. A controlled field shows its value. React puts a text field back to the value it was given
// after each keystroke its handler did not take (a letter in a quantity, a seventh digit in a
// code); Preact renders nothing when the state did not change, so the refused text stayed on
// screen while the form kept the old value. Each text field's value is noted as it renders, and
// after an input event (once the render it caused is done) a field showing anything else is given
// its value back.
type Controlled = (HTMLInputElement | HTMLTextAreaElement) & { __value?: string }
const TEXT = new Set(['text', 'search', 'tel', 'url', 'email', 'password'])
const previous = options.diffed
options.diffed = (vnode) => {
  const { type, props } = vnode as { type: unknown; props: { value?: unknown; type?: string } }
  if (type === 'textarea' || (type === 'input' && TEXT.has(props.type ?? 'text'))) {
    // The element the field rendered to (Preact's own name for it, kept from release to release).
    const el = (vnode as unknown as { __e?: Controlled }).__e
    // A field given no value is the browser's to keep.
    if (el) el.__value = props.value == null ? undefined : String(props.value)
  }
  previous?.(vnode)
}
if (typeof document !== 'undefined') {
  document.addEventListener('input', (e) => {
    const el = e.target as Controlled
    if (el.__value === undefined || (e as InputEvent).isComposing) return
    // After the handlers and the render they queued (both microtasks queued before this one).
    queueMicrotask(() => {
      if (el.__value === undefined || el.value === el.__value) return
      const at = Math.max(0, (el.selectionStart ?? el.value.length) - (el.value.length - el.__value.length))
      el.value = el.__value
      if (document.activeElement === el) el.setSelectionRange(at, at)
    })
  })
}

// 3. Ids unique on the page. React numbers `useId` across the page; Preact numbers them in each
// root ("P0-0", "P0-1", …), so a dialog drawn in a root of its own (components/askReason.tsx)
// was given ids the app's root had given already, and its name could be read off another
// element. What is drawn inside an IdScope numbers its ids apart ("P1-0", …).
let scopes = 0
export function IdScope({ children }: { children: ReactNode }) {
  return children
}
const previousVnode = options.vnode
options.vnode = (vnode) => {
  // Preact's own name for where useId counts (the nearest vnode holding one, else the root's).
  if (vnode.type === (IdScope as unknown)) (vnode as unknown as { __m?: [number, number] }).__m = [++scopes, 0]
  previousVnode?.(vnode)
}
