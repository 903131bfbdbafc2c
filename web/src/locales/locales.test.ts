import i18next from 'i18next'
import en from './en.json'
import ru from './ru.json'
import vi from './vi.json'
import zh from './zh.json'

type Tree = { [key: string]: string | Tree }

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k
    if (typeof v === 'string') out.set(key, v)
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv)
  }
  return out
}

// A plural form is a key with a suffix whose text is counted ("chronic_other" is a field).
const PLURAL = /_(zero|one|two|few|many|other)$/
const counted = (text: string) => /\{\{\s*count\s*\}\}/.test(text)
const base = (key: string, text: string) => (counted(text) ? key.replace(PLURAL, '') : key)
const placeholders = (s: string) => [...new Set([...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]))].sort()

/** Each key without its plural suffix, with the plural forms a language gives it ([] for none). */
function forms(texts: Map<string, string>) {
  const out = new Map<string, string[]>()
  for (const [key, text] of texts) {
    const m = counted(text) ? PLURAL.exec(key) : null
    out.set(base(key, text), [...(out.get(base(key, text)) ?? []), ...(m ? [m[1]] : [])])
  }
  return out
}

const LOCALES = { en, ru, zh, vi } as Record<string, Tree>

describe('locales', () => {
  const english = flatten(en)
  const englishForms = forms(english)
  for (const [lang, tree] of Object.entries(LOCALES)) {
    const texts = flatten(tree)
    const own = forms(texts)
    // The plural forms this language's grammar has (en: one, other; ru: one, few, many, other; zh, vi: other).
    const categories = new Intl.PluralRules(lang).resolvedOptions().pluralCategories.slice().sort()

    if (lang !== 'en') {
      it(`${lang} has exactly the English keys, plural forms included`, () => {
        expect([...texts.keys()].sort()).toEqual([...english.keys()].sort())
        expect([...own.keys()].sort()).toEqual([...englishForms.keys()].sort())
      })
    }
    // Every language carries the same plural keys (one, few, many, other, and the bare key);
    // i18next reads those of the language's own grammar, and each of those must be there.
    it(`${lang} gives a counted text every plural form of its grammar`, () => {
      for (const [key, f] of own) {
        if (f.length > 0) for (const c of categories) expect(f, `${lang} ${key} lacks ${c}`).toContain(c)
        // A text English counts is counted in every language that has plural forms.
        if (categories.length > 1 && (englishForms.get(key)?.length ?? 0) > 0) expect(f.length, `${lang} ${key} has no plural forms`).toBeGreaterThan(0)
      }
    })
    it(`${lang} has no empty text and keeps every placeholder`, () => {
      const englishPlaceholders = new Map<string, string[]>()
      for (const [key, text] of english) englishPlaceholders.set(base(key, text), placeholders(text))
      for (const [key, text] of texts) {
        expect(text.trim(), key).not.toBe('')
        expect(placeholders(text), key).toEqual(englishPlaceholders.get(base(key, text)))
      }
    })
  }
})

describe('plural texts', () => {
  const i18n = i18next.createInstance()
  beforeAll(() => i18n.init({ resources: Object.fromEntries(Object.entries(LOCALES).map(([l, t]) => [l, { translation: t }])), lng: 'en', fallbackLng: false }))
  const say = (lang: string, key: string, count: number) => i18n.getFixedT(lang)(key, { count })

  it('Russian ages and counts take год/года/лет and their kin', () => {
    expect([1, 2, 5, 11, 21, 22, 25, 101].map((n) => say('ru', 'patients.ageYears', n))).toEqual(['1 год', '2 года', '5 лет', '11 лет', '21 год', '22 года', '25 лет', '101 год'])
    expect([1, 3, 12].map((n) => say('ru', 'patients.total', n))).toEqual(['1 пациент', '3 пациента', '12 пациентов'])
    expect([1, 2, 7].map((n) => say('ru', 'audit.total', n))).toEqual(['1 событие', '2 события', '7 событий'])
  })
  it('English says 1 patient, 2 patients', () => {
    expect([1, 2].map((n) => say('en', 'patients.total', n))).toEqual(['1 patient', '2 patients'])
    expect([1, 3].map((n) => say('en', 'rx.refillsN', n))).toEqual(['1 refill', '3 refills'])
  })
  it('Chinese and Vietnamese have one form for every count', () => {
    expect(say('zh', 'patients.total', 1)).toBe('共 1 名患者')
    expect(say('vi', 'patients.ageYears', 21)).toBe('21 tuổi')
  })
})
