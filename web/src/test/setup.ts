// jsdom lacks matchMedia, ResizeObserver, a canvas and pseudo-element support in
// getComputedStyle, all used by antd or the signature pad.
// Only for the tests that run in jsdom (those that say so); the others run in Node.
import { beforeEach } from 'vitest'
import '../lib/reactSemantics'
import { clearToasts } from '../light/Toast'

// The toasts live outside React: each test starts with none (files share a worker).
beforeEach(clearToasts)

if (typeof window !== 'undefined') {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  })
  // antd's tables and overflow lists watch their size; jsdom lays nothing out.
  window.ResizeObserver ??= class {
    observe() {}
    unobserve() {}
    disconnect() {}
  }
  // jsdom draws nothing: a canvas's 2D context takes every call and property and does nothing
  // (the signature pad draws on one).
  HTMLCanvasElement.prototype.getContext = function (this: HTMLCanvasElement) {
    const noop = () => {}
    return new Proxy({}, { get: (_, key) => (key === 'canvas' ? this : noop), set: () => true })
  } as unknown as HTMLCanvasElement['getContext']
  HTMLCanvasElement.prototype.toDataURL = () => 'data:image/png;base64,'
  // Once per worker: the files of a worker share one window (see below).
  if (!('emrTestSetUp' in window)) {
    const getComputedStyle = window.getComputedStyle
    window.getComputedStyle = (elt: Element) => getComputedStyle(elt)
    Object.defineProperty(window, 'emrTestSetUp', { value: true })
  }
}

// findBy… and waitFor give up after 1 s by default: too short on a busy two-core machine that
// runs the Go tests beside (a screen's query cache answered after it once). A bound, not a
// wait: they return as soon as what they wait for holds.
//
// The test files of a worker share their modules and their window (vite.config.ts: isolate is
// off, which took the run from nine minutes to two): each file starts as if alone — no
// cookie, no stored value, English, real timers and globals — and each test's render is
// unmounted after it.
if (typeof window !== 'undefined') {
  const { cleanup, configure } = await import('@testing-library/react')
  configure({ asyncUtilTimeout: 10_000 })
  for (const c of document.cookie.split(';')) {
    const name = c.split('=')[0].trim()
    if (name) document.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`
  }
  localStorage.clear()
  sessionStorage.clear()
  document.documentElement.removeAttribute('lang')
  const i18n = (await import('i18next')).default
  if (i18n.isInitialized && i18n.language !== 'en') await i18n.changeLanguage('en')
  afterEach(() => cleanup())
}
afterAll(() => {
  vi.useRealTimers()
  vi.unstubAllGlobals()
})
