import { initialLanguage } from './i18n'

describe('initialLanguage (spec §4)', () => {
  it('prefers the cookie', () => expect(initialLanguage('vi', 'ru-RU')).toBe('vi'))
  it('falls back to a supported browser language', () => {
    expect(initialLanguage(undefined, 'ru-RU')).toBe('ru')
    expect(initialLanguage(undefined, 'zh-CN')).toBe('zh')
    expect(initialLanguage('xx', 'vi')).toBe('vi')
  })
  it('else English', () => expect(initialLanguage(undefined, 'de-DE')).toBe('en'))
})
