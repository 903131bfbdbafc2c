import { describe, expect, it } from 'vitest'
import { expand, fill, findSnippet, shiftMarks, shortcutBefore } from './expand'

describe('snippet expansion', () => {
  it('finds a shortcut at the caret, after a space or at the start, in any script', () => {
    expect(shortcutBefore(';ntd', 4)).toEqual({ start: 0, shortcut: ';ntd' })
    expect(shortcutBefore('Pain. ;НТД', 10)).toEqual({ start: 6, shortcut: ';нтд' })
    expect(shortcutBefore('a;ntd', 5)).toBeNull() // inside a word
    expect(shortcutBefore('x ;ntd more', 6)).toEqual({ start: 2, shortcut: ';ntd' })
    expect(shortcutBefore('x ;', 3)).toBeNull()
  })

  it('prefers the first snippet for the section or for any', () => {
    const list = [
      { shortcut: ';a', section: 'plan', body: 'mine' },
      { shortcut: ';a', section: 'any', body: 'clinic' },
    ]
    expect(findSnippet(list, ';a', 'plan')?.body).toBe('mine')
    expect(findSnippet(list, ';a', 'examination')?.body).toBe('clinic')
    expect(findSnippet(list, ';b', 'plan')).toBeUndefined()
  })

  it('fills placeholders and marks each, keeping those without a value', () => {
    const { text, marks } = fill('{{age}}, {{sex}}; HbA1c {{last.HbA1c}}; BP {{ vitals.bp }}', { age: '56 years old', sex: 'male', 'last.HBA1C': '7.2 %' })
    expect(text).toBe('56 years old, male; HbA1c 7.2 %; BP {{ vitals.bp }}')
    expect(marks.map((m) => [text.slice(m.start, m.end), m.filled])).toEqual([
      ['56 years old', true],
      ['male', true],
      ['7.2 %', true],
      ['{{ vitals.bp }}', false],
    ])
  })

  it('replaces the shortcut and puts the caret after the text', () => {
    const r = expand('Seen. ;pt rest', 9, 6, '{{age}} old', { age: '40' })
    expect(r.text).toBe('Seen. 40 old rest')
    expect(r.caret).toBe(12)
    expect(r.marks).toEqual([{ start: 6, end: 8, filled: true }])
  })

  it('keeps marks before and after an edit, and drops the one edited', () => {
    const marks = [
      { start: 0, end: 2, filled: true },
      { start: 5, end: 7, filled: true },
      { start: 10, end: 12, filled: true },
    ]
    const before = 'aa, bb, cc, dd'
    expect(shiftMarks(marks, before, 'aa, bX, cc, dd')).toEqual([marks[0], marks[2]])
    expect(shiftMarks(marks, before, 'XXaa, bb, cc, dd')).toEqual(marks.map((m) => ({ ...m, start: m.start + 2, end: m.end + 2 })))
    expect(shiftMarks(marks, before, 'aa!, bb, cc, dd')).toEqual([marks[0], { ...marks[1], start: 6, end: 8 }, { ...marks[2], start: 11, end: 13 }])
    expect(shiftMarks(marks, before, '')).toEqual([])
  })
})
