// The pure part of snippet expansion: finding a shortcut before the caret, filling a
// snippet's placeholders from the chart, and keeping the marks of filled values in step as
// the text is edited.

/** A stretch of the text a snippet filled: from the chart (filled), or a placeholder the chart had no value for. */
export interface Mark {
  start: number
  end: number
  filled: boolean
}

/** A shortcut is ";" and 1 to 20 letters, digits or "-", at the start or after a space. */
const SHORTCUT_BEFORE = /(?:^|[\s([{])(;[\p{L}\p{N}-]{1,20})$/u

/** The shortcut that ends at caret, if any. */
export function shortcutBefore(text: string, caret: number): { start: number; shortcut: string } | null {
  const m = SHORTCUT_BEFORE.exec(text.slice(0, caret))
  return m ? { start: caret - m[1].length, shortcut: m[1].toLowerCase() } : null
}

interface SnippetLike {
  shortcut: string
  section: string
  body: string
}

/** The snippet a shortcut names for a section: the first in the list (the doctor's own come first), for the section or for any. */
export function findSnippet<S extends SnippetLike>(snippets: S[], shortcut: string, section: string): S | undefined {
  return snippets.find((s) => s.shortcut === shortcut && (s.section === section || s.section === 'any'))
}

const PLACEHOLDER = /\{\{\s*([^{}]*?)\s*\}\}/g

/** The value key of a placeholder: last.<analyte> by the analyte's code in capitals. */
const keyOf = (name: string) => (name.startsWith('last.') ? 'last.' + name.slice(5).toUpperCase() : name)

/** A snippet's body with its placeholders filled from values; a placeholder without a value stays, marked as missing. */
export function fill(body: string, values: Record<string, string>): { text: string; marks: Mark[] } {
  let text = ''
  const marks: Mark[] = []
  let at = 0
  for (const m of body.matchAll(PLACEHOLDER)) {
    text += body.slice(at, m.index)
    const value = values[keyOf(m[1])]
    const piece = value ? value : m[0]
    marks.push({ start: text.length, end: text.length + piece.length, filled: !!value })
    text += piece
    at = m.index + m[0].length
  }
  return { text: text + body.slice(at), marks }
}

/** The text after expanding the shortcut that ends at caret with body, the caret after it, and the marks of its placeholders. */
export function expand(text: string, caret: number, start: number, body: string, values: Record<string, string>) {
  const filled = fill(body, values)
  return {
    text: text.slice(0, start) + filled.text + text.slice(caret),
    caret: start + filled.text.length,
    marks: filled.marks.map((m) => ({ ...m, start: m.start + start, end: m.end + start })),
  }
}

/**
 * The marks after the text changed from before to after: a mark the change touched is gone
 * (it was edited), one after the change moves with it.
 */
export function shiftMarks(marks: Mark[], before: string, after: string): Mark[] {
  if (before === after || marks.length === 0) return marks
  let p = 0
  while (p < before.length && p < after.length && before[p] === after[p]) p++
  let s = 0
  while (s < before.length - p && s < after.length - p && before[before.length - 1 - s] === after[after.length - 1 - s]) s++
  const changedEnd = before.length - s
  const delta = after.length - before.length
  return marks.flatMap((m) => {
    if (m.end <= p) return [m] // before the change (typing just after a value does not edit it)
    if (m.start >= changedEnd) return [{ ...m, start: m.start + delta, end: m.end + delta }] // after it
    return [] // the change touched it: edited
  })
}
