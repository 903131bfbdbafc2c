import { describe, expect, it } from 'vitest'
import { decimalSign, formatMoney, parseMajor, toMajor } from './money'

describe('money', () => {
  it('reads major-unit text into minor units, refusing more decimals than the currency has', () => {
    expect(parseMajor('350', 2, 'en')).toBe(35000)
    expect(parseMajor('350.5', 2, 'en')).toBe(35050)
    expect(parseMajor('0.07', 2, 'en')).toBe(7)
    expect(parseMajor('200000', 0, 'en')).toBe(200000)
    expect(parseMajor('200000.5', 0, 'en')).toBeUndefined()
    expect(parseMajor('1.005', 2, 'en')).toBeUndefined()
    expect(parseMajor('-1', 2, 'en')).toBeUndefined()
    expect(parseMajor('1,000', 2, 'en')).toBeUndefined()
  })
  it('takes a decimal comma, as ru and vi write amounts, and đồng grouped by points in vi', () => {
    expect(parseMajor('350,5', 2, 'ru')).toBe(35050)
    expect(parseMajor('350,50', 2, 'vi')).toBe(35050)
    expect(parseMajor('200,000', 0, 'vi')).toBeUndefined()
    expect(parseMajor('200.000', 0, 'vi')).toBe(200000)
    expect(parseMajor('1.500', 2, 'vi')).toBeUndefined()
    expect(parseMajor('1,5,0', 2, 'ru')).toBeUndefined()
    expect(['en', 'ru', 'zh', 'vi'].map(decimalSign)).toEqual(['.', ',', '.', ','])
  })
  it('writes minor units back as major-unit text', () => {
    expect(toMajor(35050, 2)).toBe('350.50')
    expect(toMajor(7, 2)).toBe('0.07')
    expect(toMajor(200000, 0)).toBe('200000')
  })
  it('shows an amount in the currency and the language', () => {
    expect(formatMoney(35050, 'PHP', 2, 'en')).toBe('₱350.50')
    expect(formatMoney(200000, 'VND', 0, 'vi')).toMatch(/^200\.000\s₫$/)
    expect(formatMoney(35050, 'RUB', 2, 'ru')).toMatch(/^350,50\s₽$/)
    expect(formatMoney(10, 'CNY', 2, 'zh')).toBe('¥0.10')
  })
})
