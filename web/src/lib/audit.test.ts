import i18next from 'i18next'
import en from '../locales/en.json'
import ru from '../locales/ru.json'
import vi from '../locales/vi.json'
import zh from '../locales/zh.json'
import { auditRecordLabel } from './audit'

describe('the audit log names a record in words', () => {
  const i18n = i18next.createInstance()
  beforeAll(() => i18n.init({ resources: { en: { translation: en }, ru: { translation: ru }, zh: { translation: zh }, vi: { translation: vi } }, lng: 'en', fallbackLng: false }))

  it('names a recorded current medicine, which the chart and the FHIR API audit, in every language', () => {
    const want: Record<string, string> = { en: 'Current medicine 7', ru: 'Текущий препарат 7', zh: '当前用药 7', vi: 'Thuốc đang dùng 7' }
    for (const [lang, words] of Object.entries(want)) expect(auditRecordLabel(i18n.getFixedT(lang), 'medicine_taken', '7'), lang).toBe(words)
  })
})
