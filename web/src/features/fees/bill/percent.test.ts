import { describe, expect, it } from 'vitest'
import { parsePercent } from './dialogs'

describe('parsePercent', () => {
  it('reads a percent in hundredths, as the server takes it', () => {
    expect(parsePercent('20')).toBe(2000)
    expect(parsePercent(' 12.5 ')).toBe(1250)
    expect(parsePercent('0.01')).toBe(1)
    expect(parsePercent('100')).toBe(10000)
    expect(parsePercent('12,5')).toBe(1250) // a decimal comma, as ru and vi write it
  })
  it('refuses what is no percent of a bill', () => {
    for (const text of ['', '0', '100.01', '101', '12.345', '-5', '1e2', 'abc', '20%']) expect(parsePercent(text), text).toBeUndefined()
  })
})
