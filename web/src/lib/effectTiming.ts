// The app renders with Preact through its React-compatible layer (docs/adr/0048). Preact runs an
// effect after the browser paints (a frame later); React runs the effects of a render caused by
// a click or a keystroke before the next event. Code here relies on that: an effect that
// subscribes a form's latest handler (the visit's draft telling its autosave) must have run
// before the next keystroke, or that keystroke is typed and not saved. So effects run as soon
// as the render that scheduled them is done, before any next event (a microtask), as React's.
import { options } from 'preact'

options.requestAnimationFrame = (flush) => queueMicrotask(flush)
