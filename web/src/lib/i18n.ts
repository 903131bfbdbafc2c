// Interface languages: English, Russian, Chinese, Vietnamese. The choice is kept in the
// "language" cookie (which the server reads too, for its own messages); the first visit
// uses the browser's language when it is one of the four, else English. Only the current
// language's texts are loaded; another is fetched when the user switches to it.
import i18n from 'i18next'
import Cookies from 'js-cookie'
import { useEffect, useState } from 'react'
import { initReactI18next } from 'react-i18next'

export const LANGUAGES = ['en', 'ru', 'zh', 'vi'] as const
export type Language = (typeof LANGUAGES)[number]

/** Each language's name in itself, in the order of the spec's selector. */
export const LANGUAGE_NAMES: Record<Language, string> = { vi: 'Tiếng Việt', en: 'English', zh: '中文', ru: 'Русский' }
export const LANGUAGE_ORDER: Language[] = ['vi', 'en', 'zh', 'ru']

const COOKIE = 'language'

type Texts = Record<string, unknown>
const loaders: Record<Language, () => Promise<{ default: Texts }>> = {
  en: () => import('../locales/en.json'),
  ru: () => import('../locales/ru.json'),
  zh: () => import('../locales/zh.json'),
  vi: () => import('../locales/vi.json'),
}

export const isLanguage = (s: string | undefined): s is Language => LANGUAGES.includes(s as Language)

/** The language to start in: the cookie, else the browser's language if supported, else en. */
export function initialLanguage(cookie = Cookies.get(COOKIE), browser = navigator.language): Language {
  if (isLanguage(cookie)) return cookie
  const base = browser?.toLowerCase().split('-')[0]
  return isLanguage(base) ? base : 'en'
}

/** The current interface language. */
export const currentLanguage = (): Language => (isLanguage(i18n.language) ? i18n.language : 'en')

async function load(lang: Language) {
  if (!i18n.hasResourceBundle(lang, 'translation')) {
    i18n.addResourceBundle(lang, 'translation', (await loaders[lang]()).default)
  }
}

/** Switches the interface language and remembers it in the cookie. */
export async function setLanguage(lang: Language) {
  await load(lang)
  Cookies.set(COOKIE, lang, { sameSite: 'Lax', expires: 365 })
  document.documentElement.lang = lang
  await i18n.changeLanguage(lang)
}

/** Loads the initial language and starts i18next; the app renders after it resolves. */
export async function initI18n(lang = initialLanguage()) {
  document.documentElement.lang = lang
  await i18n.use(initReactI18next).init({
    resources: {},
    lng: lang,
    fallbackLng: false, // every key exists in every language (a test checks it)
    interpolation: { escapeValue: false }, // React escapes
    returnNull: false,
  })
  await load(lang)
  await i18n.changeLanguage(lang)
}

export default i18n

/**
 * The texts of another language than the interface's (a printed document in its own
 * language), loaded when first needed; undefined until they are.
 */
export function useTextsIn(lang: string) {
  const wanted: Language = isLanguage(lang) ? lang : 'en'
  const [, loaded] = useState(0)
  useEffect(() => {
    let live = true
    if (!i18n.hasResourceBundle(wanted, 'translation')) void load(wanted).then(() => live && loaded((n) => n + 1))
    return () => void (live = false)
  }, [wanted])
  return i18n.hasResourceBundle(wanted, 'translation') ? i18n.getFixedT(wanted) : undefined
}
