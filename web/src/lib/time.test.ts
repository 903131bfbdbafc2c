import { describe, expect, it } from 'vitest'
import { documentDay, formatDate, formatDay, paperDay, relativeTime, toDate } from './time'

const now = new Date(2026, 10, 22, 12, 0, 0).getTime()
const ago = (seconds: number) => now - seconds * 1000

describe('relativeTime (spec §9)', () => {
  it('says just now under 30 seconds', () => {
    expect(relativeTime(ago(29), 'en', 'Just now', undefined, now)).toBe('Just now')
  })
  it('counts minutes under an hour, rounding up', () => {
    expect(relativeTime(ago(30), 'en', 'Just now', undefined, now)).toBe('1 minute ago')
    expect(relativeTime(ago(61), 'en', 'Just now', undefined, now)).toBe('2 minutes ago')
    expect(relativeTime(ago(3599), 'ru', 'Только что', undefined, now)).toBe('60 минут назад')
  })
  it('counts hours under a day', () => {
    expect(relativeTime(ago(3600), 'en', '', undefined, now)).toBe('1 hour ago')
    expect(relativeTime(ago(5 * 3600), 'vi', '', undefined, now)).toBe('5 giờ trước')
  })
  it('says 1 day ago under two days', () => {
    expect(relativeTime(ago(30 * 3600), 'en', '', undefined, now)).toBe('1 day ago')
    expect(relativeTime(ago(47 * 3600), 'zh', '', undefined, now)).toBe('1天前')
  })
  it('beyond two days uses the given format, else month/day/hour/minute', () => {
    const t = new Date(2026, 10, 1, 9, 5, 7).getTime()
    expect(relativeTime(t, 'en', '', 'YYYY-MM-DD', now)).toBe('2026-11-01')
    expect(relativeTime(t, 'en', '', undefined, now)).toMatch(/November 1.*9:05/)
  })
  it('treats ten-digit timestamps as seconds', () => {
    expect(toDate(1700000000).getTime()).toBe(1700000000000)
    expect(toDate('1700000000').getTime()).toBe(1700000000000)
    expect(toDate(1700000000000).getTime()).toBe(1700000000000)
  })
  it('formats year-month-day hour:minute:second by default', () => {
    expect(formatDate(new Date(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02 03:04:05')
  })
})

describe('paperDay', () => {
  it('writes a Chinese paper\'s date as its text does, others as their screens', () => {
    expect(paperDay('2026-11-05', 'zh')).toBe('2026年11月5日')
    expect(paperDay('2026-11-05', 'ru')).toBe('05.11.2026')
    expect(formatDay('2026-11-05', 'zh')).toBe('2026-11-05')
  })
})

describe('documentDay', () => {
  it('writes a document\'s day as its text does: "28 November 2026" in English', () => {
    expect(documentDay('2026-11-28', 'en')).toBe('28 November 2026')
    expect(documentDay('2026-11-28', 'ru')).toBe('28.11.2026')
    expect(documentDay('2026-11-28', 'vi')).toBe('28/11/2026')
    expect(documentDay('2026-11-28', 'zh')).toBe('2026年11月28日')
  })
})
