// jsdom lacks matchMedia, ResizeObserver, a canvas and pseudo-element support in
// getComputedStyle, all used by antd or the signature pad.
// Only for the tests that run in jsdom (those that say so); the others run in Node.
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
  const getComputedStyle = window.getComputedStyle
  window.getComputedStyle = (elt: Element) => getComputedStyle(elt)
}
