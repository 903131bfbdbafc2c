import { describe, expect, it } from 'vitest'
import en from '../locales/en.json'
import ru from '../locales/ru.json'
import vi from '../locales/vi.json'
import zh from '../locales/zh.json'
import { labelMaps } from './labels'

const lookup = (tree: unknown, key: string) => key.split('.').reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], tree)

describe('enumeration labels', () => {
  for (const [map, labels] of Object.entries(labelMaps)) {
    it(`${map}: every key is translated in en, ru, zh and vi`, () => {
      for (const key of Object.values(labels)) {
        for (const [lang, tree] of Object.entries({ en, ru, zh, vi })) {
          expect(typeof lookup(tree, key), `${lang} ${key}`).toBe('string')
        }
      }
    })
  }
})
