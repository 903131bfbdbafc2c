/// <reference types="node" />
// A light component's style sheet read as text, for a test of a rule that only CSS carries (a
// colour's edge, a least size, a forced-colours rule): jsdom draws no CSS and the tests do not
// load it, so the test reads the rule it depends on from the sheet.
import { readFileSync } from 'node:fs'

// This file's own address (a file: URL under the test runner), from which the sheets are found.
const here = import.meta.url

/** The text of the style sheet at path, from src/ ('light/Segmented.module.css'). */
export const readSheet = (path: string) => readFileSync(new URL(`../${path}`, here), 'utf8')

/** The declarations of the sheet's first rule whose selector list is exactly selector ('' if none). */
export function cssRule(sheet: string, selector: string) {
  const escaped = selector.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return sheet.match(new RegExp(`(?:^|[}\\s])${escaped}\\s*\\{([^}]*)\\}`, 'm'))?.[1] ?? ''
}
