// Ant Design's icons name themselves in English for screen readers ("down", "left",
// "search"), whatever the language. Inside a control that is named already they are only
// decoration, so they are hidden; an icon-only control of the library's own (the pagination's
// arrows, the search button) is named in the user's language instead: from its title when it
// has one, else from the icon's meaning.
import i18n from '../lib/i18n'

const MEANING: Record<string, string> = {
  search: 'app.icons.search',
  left: 'app.icons.previous',
  right: 'app.icons.next',
  'double-left': 'app.icons.previous',
  'double-right': 'app.icons.next',
  close: 'app.icons.close',
  'close-circle': 'app.clear',
  ellipsis: 'app.icons.more',
}

function label(icon: Element) {
  const name = icon.getAttribute('aria-label') ?? ''
  // A link without href is not a control and may not carry a name (the pagination's "next 5
  // pages" item: its list item, focusable and titled, is the control).
  const control = icon.closest('button, a[href], [role=button], [role=tab], [role=menuitem], [role=switch]')
  if (control && !control.getAttribute('aria-label')) {
    const text = [...control.childNodes].some((n) => n !== icon && !(n instanceof Element && n.matches('.anticon')) && n.textContent?.trim())
    const title = control.getAttribute('title') || control.parentElement?.getAttribute('title')
    const meaning = MEANING[name]
    if (!text && (title || meaning)) control.setAttribute('aria-label', title || i18n.t(meaning))
  }
  icon.setAttribute('aria-hidden', 'true')
  icon.removeAttribute('aria-label')
}

function scan(root: ParentNode) {
  if (root instanceof Element && root.matches('.anticon[role=img][aria-label]')) label(root)
  root.querySelectorAll('.anticon[role=img][aria-label]').forEach(label)
}

/** Keeps every library icon on the page named in the user's language (or hidden). */
export function watchIconLabels(root: HTMLElement = document.body) {
  scan(root)
  const observer = new MutationObserver((mutations) => {
    for (const m of mutations) m.addedNodes.forEach((n) => n instanceof Element && scan(n))
  })
  observer.observe(root, { childList: true, subtree: true })
  return () => observer.disconnect()
}
