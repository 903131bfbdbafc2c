// jsdom lacks matchMedia and pseudo-element support in getComputedStyle, both used by antd.
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
  const getComputedStyle = window.getComputedStyle
  window.getComputedStyle = (elt: Element) => getComputedStyle(elt)
}
