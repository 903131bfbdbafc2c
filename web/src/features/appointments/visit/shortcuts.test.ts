// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { shortcutOf } from './shortcuts'

const key = (k: Partial<KeyboardEvent>) => ({ key: '', code: '', altKey: false, ctrlKey: false, metaKey: false, shiftKey: false, isComposing: false, ...k })

describe('visit shortcuts', () => {
  it('reads Alt shortcuts by the physical key, whatever the layout types', () => {
    expect(shortcutOf(key({ altKey: true, code: 'KeyO', key: 'ø' }), null)).toBe('orderSet')
    expect(shortcutOf(key({ altKey: true, code: 'Digit3', key: '3' }), null)).toBe('diagnoses')
    expect(shortcutOf(key({ altKey: true, code: 'KeyQ' }), null)).toBeNull()
    expect(shortcutOf(key({ altKey: true, ctrlKey: true, code: 'KeyO' }), null)).toBeNull()
  })

  it('opens the help on "?" only when not typing text, and never while composing', () => {
    const area = document.createElement('textarea')
    const box = document.createElement('input')
    box.type = 'checkbox'
    expect(shortcutOf(key({ key: '?' }), document.body)).toBe('help')
    expect(shortcutOf(key({ key: '?' }), box)).toBe('help')
    expect(shortcutOf(key({ key: '?' }), area)).toBeNull()
    expect(shortcutOf(key({ altKey: true, code: 'KeyO', isComposing: true }), null)).toBeNull()
  })
})
