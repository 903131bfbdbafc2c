// Interface languages: English, Russian, Chinese, Vietnamese. The choice is kept in the
// "language" cookie (which the server reads too, for its own messages); the first visit
// uses the browser's language when it is one of the four, else English.
import i18n from 'i18next'
import Cookies from 'js-cookie'
import { initReactI18next } from 'react-i18next'
import en from '../locales/en.json'
import ru from '../locales/ru.json'
import vi from '../locales/vi.json'
import zh from '../locales/zh.json'

export const LANGUAGES = ['en', 'ru', 'zh', 'vi'] as const
export type Language = (typeof LANGUAGES)[number]

/** Each language's name in itself, in the order of the spec's selector. */
export const LANGUAGE_NAMES: Record<Language, string> = { vi: 'Tiếng Việt', en: 'English', zh: '中文', ru: 'Русский' }

const COOKIE = 'language'

const isLanguage = (s: string | undefined): s is Language => LANGUAGES.includes(s as Language)

/** The language to start in: the cookie, else the browser's language if supported, else en. */
export function initialLanguage(cookie = Cookies.get(COOKIE), browser = navigator.language): Language {
  if (isLanguage(cookie)) return cookie
  const base = browser?.toLowerCase().split('-')[0]
  return isLanguage(base) ? base : 'en'
}

export function setLanguage(lang: Language) {
  Cookies.set(COOKIE, lang, { sameSite: 'Lax', expires: 365 })
  document.documentElement.lang = lang
  return i18n.changeLanguage(lang)
}

export const resources = { en: { translation: en }, ru: { translation: ru }, zh: { translation: zh }, vi: { translation: vi } }

const lang = initialLanguage()
document.documentElement.lang = lang
void i18n.use(initReactI18next).init({
  resources,
  lng: lang,
  fallbackLng: 'en',
  interpolation: { escapeValue: false }, // React escapes
  returnNull: false,
})

export default i18n
