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

const placeholders = (s: string) => [...s.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map((m) => m[1]).sort()

describe('locales', () => {
  const english = flatten(en)
  for (const [lang, tree] of Object.entries({ ru, zh, vi })) {
    const other = flatten(tree as Tree)
    it(`${lang} has exactly the English keys`, () => {
      expect([...other.keys()].sort()).toEqual([...english.keys()].sort())
    })
    it(`${lang} has no empty text and keeps every placeholder`, () => {
      for (const [key, text] of other) {
        expect(text.trim(), key).not.toBe('')
        expect(placeholders(text), key).toEqual(placeholders(english.get(key) ?? ''))
      }
    })
  }
})
