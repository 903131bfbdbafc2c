import dayjs from 'dayjs'
import { describe, expect, it } from 'vitest'
import { soonestSlot } from './soonestSlot'

describe('soonestSlot', () => {
  it.each([
    ['2026-11-26T10:58:30', '2026-11-26T11:15'],
    ['2026-11-26T10:45:00', '2026-11-26T11:00'],
    ['2026-11-26T10:47:10', '2026-11-26T11:05'],
    ['2026-11-26T23:50:00', '2026-11-27T00:05'],
  ])('%s → %s', (now, want) => {
    expect(soonestSlot(dayjs(now)).format('YYYY-MM-DDTHH:mm')).toBe(want)
  })
})
