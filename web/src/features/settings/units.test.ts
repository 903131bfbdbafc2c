import { describe, expect, it } from 'vitest'
import { formatInterval, formatSize } from './units'

describe('backup sizes and intervals in the reader language', () => {
  it('sizes', () => {
    expect(formatSize(512, 'en')).toBe('512 byte')
    expect(formatSize(1536, 'en')).toBe('1.5 kB')
    expect(formatSize(5 * 1024 * 1024, 'ru')).toMatch(/^5 МБ$/)
  })
  it('intervals', () => {
    expect(formatInterval(86400, 'en')).toBe('24 hours')
    expect(formatInterval(14 * 86400, 'en')).toBe('14 days')
    expect(formatInterval(1800, 'en')).toBe('30 minutes')
    expect(formatInterval(86400, 'vi')).toBe('24 giờ')
  })
})
