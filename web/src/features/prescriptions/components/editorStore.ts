// The prescription editor's values outside React: its lines (each with a key of its own and the
// server's messages for its fields) and its notes. A field follows its own value, a line its own
// few facts, the editor the medicines the safety check runs on: a key typed in a dose renders
// that field alone, and adding a line renders the new one, never every line (issue 58, item 2).
import { useRef, useSyncExternalStore } from 'react'
import type { Item } from '../api/types'

/** A line of the editor: its key (stable while it lives), its values and what the server said of them. */
export interface Line {
  key: number
  item: Item
  errors: Partial<Record<keyof Item, string>>
}

export interface EditorState {
  lines: Line[]
  notes: string
}

export interface EditorStore {
  get(): EditorState
  set(next: EditorState): void
  subscribe(changed: () => void): () => void
  /** A line made of an item, with a new key. */
  line(item: Item): Line
  /** Sets some of a line's values; the messages under them go, as the prescriber corrects them. */
  update(key: number, part: Partial<Item>): void
}

export function createEditorStore(items: Item[], notes: string): EditorStore {
  let next = 0
  const line = (item: Item): Line => ({ key: next++, item, errors: {} })
  let state: EditorState = { lines: items.map(line), notes }
  const listeners = new Set<() => void>()
  const set = (s: EditorState) => {
    state = s
    listeners.forEach((l) => l())
  }
  return {
    get: () => state,
    set,
    subscribe: (changed) => {
      listeners.add(changed)
      return () => listeners.delete(changed)
    },
    line,
    update: (key, part) => {
      const names = Object.keys(part) as (keyof Item)[]
      set({
        ...state,
        lines: state.lines.map((l) => {
          if (l.key !== key) return l
          const errors = names.some((n) => l.errors[n] !== undefined) ? Object.fromEntries(Object.entries(l.errors).filter(([n]) => !names.includes(n as keyof Item))) : l.errors
          return { ...l, item: { ...l.item, ...part }, errors }
        }),
      })
    },
  }
}

/**
 * What a component reads of the store, rendering again only when that changes (by `same`; the
 * last answer is kept, so an equal one built anew is the same snapshot).
 */
export function useSelected<T>(store: EditorStore, select: (s: EditorState) => T, same: (a: T, b: T) => boolean = Object.is): T {
  const last = useRef<{ value: T } | null>(null)
  const snapshot = () => {
    const value = select(store.get())
    if (last.current && same(last.current.value, value)) return last.current.value
    last.current = { value }
    return value
  }
  return useSyncExternalStore(store.subscribe, snapshot)
}

/** One value of a line and its message. */
export function useLineField<K extends keyof Item>(store: EditorStore, key: number, name: K): { value: Item[K] | undefined; error?: string } {
  const value = useSelected(store, (s) => s.lines.find((l) => l.key === key)?.item[name])
  const error = useSelected(store, (s) => s.lines.find((l) => l.key === key)?.errors[name])
  return { value, error }
}

/** Whether two lists hold the same values, in order. */
export const sameList = <T>(a: T[], b: T[]) => a.length === b.length && a.every((x, i) => Object.is(x, b[i]))
