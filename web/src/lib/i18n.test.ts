// @vitest-environment jsdom
import i18n from 'i18next'
import { initI18n, initialLanguage, setLanguage } from './i18n'

describe('initialLanguage (spec §4)', () => {
  it('prefers the cookie', () => expect(initialLanguage('vi', 'ru-RU')).toBe('vi'))
  it('falls back to a supported browser language', () => {
    expect(initialLanguage(undefined, 'ru-RU')).toBe('ru')
    expect(initialLanguage(undefined, 'zh-CN')).toBe('zh')
    expect(initialLanguage('xx', 'vi')).toBe('vi')
  })
  it('else English', () => expect(initialLanguage(undefined, 'de-DE')).toBe('en'))
})

describe('language switching', () => {
  it('loads the new language and remembers it in the cookie', async () => {
    await initI18n('en')
    expect(i18n.t('login.submit')).toBe('Log in')
    await setLanguage('ru')
    expect(i18n.t('login.submit')).toBe('Войти')
    expect(document.cookie).toContain('language=ru')
    expect(document.documentElement.lang).toBe('ru')
  })
})
