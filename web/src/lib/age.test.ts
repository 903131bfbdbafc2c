import dayjs from 'dayjs'
import i18n from 'i18next'
import { beforeAll, describe, expect, it } from 'vitest'
import { ageParts, formatAge } from './age'
import en from '../locales/en.json'
import ru from '../locales/ru.json'
import vi from '../locales/vi.json'
import zh from '../locales/zh.json'

const today = dayjs('2026-12-01')

describe('ageParts', () => {
  it('counts days under a month, months under two years, years after', () => {
    expect(ageParts('2026-12-01', today)).toEqual({ unit: 'days', count: 0 })
    expect(ageParts('2026-11-14', today)).toEqual({ unit: 'days', count: 17 })
    expect(ageParts('2026-11-01', today)).toEqual({ unit: 'months', count: 1 })
    expect(ageParts('2026-04-20', today)).toEqual({ unit: 'months', count: 7 })
    expect(ageParts('2024-12-02', today)).toEqual({ unit: 'months', count: 23 })
    expect(ageParts('2024-12-01', today)).toEqual({ unit: 'years', count: 2 })
    expect(ageParts('1980-06-15', today)).toEqual({ unit: 'years', count: 46 })
  })
})

describe('formatAge', () => {
  beforeAll(async () => {
    await i18n.init({ lng: 'en', resources: { en: { translation: en }, ru: { translation: ru }, vi: { translation: vi }, zh: { translation: zh } } })
  })
  it.each([
    ['en', '2026-04-20', '7 mo'],
    ['en', '2026-11-30', '1 day'],
    ['ru', '2026-04-20', '7 месяцев'],
    ['ru', '2026-10-01', '2 месяца'],
    ['ru', '2025-12-01', '12 месяцев'],
    ['ru', '2026-11-30', '1 день'],
    ['ru', '2026-11-28', '3 дня'],
    ['ru', '2026-11-14', '17 дней'],
    ['ru', '2026-11-01', '1 месяц'],
    ['zh', '2026-04-20', '7 个月'],
    ['zh', '2026-11-14', '17 天'],
    ['vi', '2026-04-20', '7 tháng tuổi'],
    ['vi', '2026-11-14', '17 ngày tuổi'],
    ['ru', '2020-01-01', '6 лет'],
  ])('%s: born %s is %s', async (lang, birth, want) => {
    await i18n.changeLanguage(lang)
    expect(formatAge(birth, today)).toBe(want)
  })
})
