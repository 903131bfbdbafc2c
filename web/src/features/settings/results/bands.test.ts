import i18next, { type TFunction } from 'i18next'
import { beforeAll, describe, expect, it } from 'vitest'
import en from '../../../locales/en.json'
import ru from '../../../locales/ru.json'
import vi from '../../../locales/vi.json'
import zh from '../../../locales/zh.json'
import { ageText, criticalGaps, criticalSummary, deltaSummary, rangeSummary, windowText } from './bands'

// How the results catalogue says an analyte's bands, in each language with its own plurals
// and decimal sign; and the ages left without critical limits (issue 52: a critical value must
// alert at every age).
const i18n = i18next.createInstance()
beforeAll(() => i18n.init({ resources: { en: { translation: en }, ru: { translation: ru }, zh: { translation: zh }, vi: { translation: vi } }, lng: 'en', fallbackLng: false, interpolation: { escapeValue: false } }))
const tr = (lang: string) => i18n.getFixedT(lang) as TFunction

describe('the catalogue says ages and windows as people do', () => {
  it.each([
    // lang, months, said
    ['en', 216, '18 years'],
    ['en', 24, '2 years'],
    ['en', 12, '12 months'],
    ['en', 1, '1 month'],
    ['ru', 216, '18 лет'],
    ['ru', 24, '2 года'],
    ['ru', 252, '21 год'],
    ['ru', 1, '1 мес.'],
    ['zh', 216, '18 岁'],
    ['vi', 216, '18 tuổi'],
  ])('%s: %i months is %s', (lang, months, said) => {
    expect(ageText(months, tr(lang))).toBe(said)
  })

  it.each([
    // lang, hours, said (a day or more also in days)
    ['en', 6, '6 hours'],
    ['en', 24, '1 day'],
    ['en', 48, '2 days'], // KDIGO 2012: creatinine within 48 hours
    ['en', 36, '1 day 12 hours'],
    ['en', 168, '7 days'], // KDIGO 2012: 1.5 × the baseline within 7 days
    ['ru', 24, '1 день'],
    ['ru', 48, '2 дня'],
    ['ru', 168, '7 дней'],
    ['ru', 36, '1 день 12 часов'],
    ['zh', 48, '2 天'],
    ['vi', 168, '7 ngày'],
  ])('%s: a window of %i hours is %s', (lang, hours, said) => {
    expect(windowText(hours, tr(lang))).toBe(said)
  })
})

describe('the catalogue list says each band', () => {
  it.each([
    ['en', 'Men ≥ 18 years: 3.5–5.1'],
    ['ru', 'Мужчины ≥ 18 лет: 3,5–5,1'],
    ['vi', 'Nam ≥ 18 tuổi: 3,5–5,1'],
  ])('%s: a reference range without critical limits: %s', (lang, said) => {
    expect(rangeSummary({ sex: 'male', age_from_months: 216, age_to_months: null, low: 3.5, high: 5.1 }, tr(lang), lang)).toBe(said)
  })

  it('says a range with one limit with its sign, never as a minus', () => {
    expect(rangeSummary({ sex: 'any', age_from_months: 216, age_to_months: null, low: null, high: 5.16 }, tr('en'), 'en')).toBe('Any sex ≥ 18 years: ≤ 5.16')
    expect(rangeSummary({ sex: 'any', age_from_months: 216, age_to_months: null, low: 60, high: null }, tr('ru'), 'ru')).toBe('Любой пол ≥ 18 лет: ≥ 60')
  })

  it.each([
    // lang, band, said — potassium's limits (internal/catalogue/lab_critical_limits.tsv)
    ['en', { age_from_months: 0, age_to_months: 1, critical_low: 2.8, critical_high: 7 }, '0 months–1 month: ≤ 2.8; ≥ 7'],
    ['en', { age_from_months: 1, age_to_months: 216, critical_low: 2.8, critical_high: 6.5 }, '1 month–18 years: ≤ 2.8; ≥ 6.5'],
    ['en', { age_from_months: 216, age_to_months: null, critical_low: 3, critical_high: 6 }, '≥ 18 years: ≤ 3; ≥ 6'],
    ['en', { age_from_months: 0, age_to_months: null, critical_low: null, critical_high: 500 }, 'all ages: ≥ 500'],
    ['ru', { age_from_months: 1, age_to_months: 216, critical_low: 2.8, critical_high: 6.5 }, '1 мес.–18 лет: ≤ 2,8; ≥ 6,5'],
    ['zh', { age_from_months: 0, age_to_months: null, critical_low: 120, critical_high: 160 }, '所有年龄: ≤ 120; ≥ 160'],
  ])('%s: critical limits %j are %s', (lang, band, said) => {
    expect(criticalSummary({ ...band, source: '' }, tr(lang), lang)).toBe(said)
  })

  it.each([
    // lang, rule, unit, said — creatinine's rules (internal/catalogue/lab_delta_rules.tsv, KDIGO 2012)
    ['en', { window_hours: 48, percent: null, abs: 26.5 }, 'µmol/L', 'change ≥ 26.5 µmol/L within 2 days'],
    ['en', { window_hours: 168, percent: 50, abs: null }, 'µmol/L', 'change ≥ 50% within 7 days'],
    ['en', { window_hours: 48, percent: 50, abs: 26.5 }, 'µmol/L', 'change ≥ 26.5 µmol/L or 50% within 2 days'],
    ['en', { window_hours: 12, percent: null, abs: 1 }, '', 'change ≥ 1 within 12 hours'],
    ['ru', { window_hours: 48, percent: null, abs: 26.5 }, 'мкмоль/л', 'изменение ≥ 26,5 мкмоль/л за 2 дня'],
    ['zh', { window_hours: 168, percent: 50, abs: null }, 'µmol/L', '7 天内变化 ≥ 50%'],
    ['vi', { window_hours: 48, percent: 50, abs: 26.5 }, 'µmol/L', 'thay đổi ≥ 26,5 µmol/L hoặc 50% trong vòng 2 ngày'],
  ])('%s: delta rule %j is %s', (lang, rule, unit, said) => {
    expect(deltaSummary({ ...rule, source: '' }, unit, tr(lang), lang)).toBe(said)
  })
})

describe('ages without critical limits', () => {
  const band = (from: number, to: number | null) => ({ age_from_months: from, age_to_months: to })
  it.each([
    // bands, the ages none covers
    ['no bands: the analyte has no critical limits at all', [], []],
    ['one band for every age', [band(0, null)], []],
    ['potassium: newborn, child and adult bands', [band(0, 1), band(1, 216), band(216, null)], []],
    ['adults only: children are not alerted', [band(216, null)], [{ from: 0, to: 216 }]],
    ['children only: adults are not alerted', [band(0, 216)], [{ from: 216, to: null }]],
    ['a hole between a child and an adult band', [band(0, 12), band(24, null)], [{ from: 12, to: 24 }]],
    ['overlapping bands in any order cover it', [band(30, null), band(0, 36), band(12, 24)], []],
    ['a band whose ages are wrong covers nothing', [band(0, 12), band(40, 20), band(12, null)], []],
  ])('%s', (_name, bands, gaps) => {
    expect(criticalGaps(bands)).toEqual(gaps)
  })
})
