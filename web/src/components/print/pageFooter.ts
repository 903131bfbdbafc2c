// The running footer of a printed sheet: the patient's name and number and "page N of M" at
// the foot of every page, so that a second page (the signed one) can never pass for another
// patient's. Drawn in the @page rule's bottom margin box, which the browser repeats per page.

/** Where the page number and the page count go in a footer's text. */
export const PAGE = '\u0001'
export const PAGES = '\u0002'

/** text as a CSS string literal: anything but letters, digits and spaces escaped, so no name is ever read as CSS. */
function cssString(text: string): string {
  return `"${[...text].map((c) => (/[\p{L}\p{N} ]/u.test(c) ? c : `\\${c.codePointAt(0)!.toString(16)} `)).join('')}"`
}

/** The CSS content of a footer whose text holds PAGE and PAGES: its strings, and the page counters. */
export function pageFooterContent(text: string): string {
  return text
    .split(new RegExp(`(${PAGE}|${PAGES})`))
    .filter((part) => part !== '')
    .map((part) => (part === PAGE ? 'counter(page)' : part === PAGES ? 'counter(pages)' : cssString(part)))
    .join(' ')
}

/** The @page rule of a sheet: its size and margin, and the running footer when there is one. */
export function pageRule(size: string, margin: string, footer?: string): string {
  const running = footer ? ` @bottom-center { content: ${pageFooterContent(footer)}; font-size: 8pt; font-family: sans-serif; color: #000; }` : ''
  return `@page { size: ${size}; margin: ${margin};${running} }`
}
