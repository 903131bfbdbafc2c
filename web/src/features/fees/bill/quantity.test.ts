import { describe, expect, it } from 'vitest'
import { keepQuantity } from './fields'

describe('keepQuantity', () => {
  it('keeps a typed quantity whole and inside 1–999, as it is sent', () => {
    expect(keepQuantity('1000')).toBe('999')
    expect(keepQuantity('1e3')).toBe('999')
    expect(keepQuantity('2.5')).toBe('3')
    expect(keepQuantity('0')).toBe('1')
    expect(keepQuantity('-4')).toBe('1')
    expect(keepQuantity('7')).toBe('7')
    expect(keepQuantity('')).toBe('')
    expect(keepQuantity('abc')).toBe('')
  })
})
