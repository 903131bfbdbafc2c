// The visit's draft as it is typed: its values by path ("vitals.weight", "diagnoses.0.code"),
// the messages under its fields by the same paths, and the keys of its rows. It lives outside
// React, and each field follows its own path (useSyncExternalStore): a keystroke renders the
// field typed in and what reads that value (the BMI, a row's star), never the whole form
// (issue 58). The values are replaced, not changed in place, along the path set, so every
// other path keeps its value and the fields reading it are left alone.
import { useCallback, useSyncExternalStore } from 'react'

/** A field's place in the draft: its keys joined by dots, a row by its index ("diagnoses.0.code"). */
export type Path = string

/** A field's messages, set by the autosave's checks or the server's refusal. */
export interface FieldErrors {
  path: Path
  errors: string[]
}

/** The lists of rows the draft holds (the diagnoses, the orders). */
type ListKey<T> = { [K in keyof T]: T[K] extends unknown[] ? K : never }[keyof T] & string

const keysOf = (path: Path) => path.split('.')

function read(root: unknown, path: Path): unknown {
  let at = root
  for (const k of keysOf(path)) {
    if (at === null || typeof at !== 'object') return undefined
    at = (at as Record<string, unknown>)[k]
  }
  return at
}

/** root with the value at path replaced, copying only the objects and arrays along the path. */
function write(root: unknown, keys: string[], value: unknown): unknown {
  if (keys.length === 0) return value
  const [k, ...rest] = keys
  if (Array.isArray(root)) {
    const copy = root.slice()
    copy[Number(k)] = write(root[Number(k)], rest, value)
    return copy
  }
  const obj = root !== null && typeof root === 'object' ? (root as Record<string, unknown>) : {}
  return { ...obj, [k!]: write(obj[k!], rest, value) }
}

/** What a field reads of a draft: its value and its messages, and when they change. */
export interface DraftReader {
  get: (path: Path) => unknown
  /** The field's messages (the same array until they change), or undefined. */
  errors: (path: Path) => string[] | undefined
  subscribe: (listener: () => void) => () => void
}

export interface Draft<T extends object> extends DraftReader {
  /** Every value, as the form holds it now. */
  all: () => T
  /** The user changed a field: set, and told to whoever follows the form's changes (the autosave). */
  set: (path: Path, value: unknown) => void
  /** Set from the form's own logic (one primary diagnosis, measured now): not a user's change. */
  put: (path: Path, value: unknown) => void
  /** Replaces these parts from outside (loaded, merged, copied forward); a field whose value changes loses its message. */
  setMany: (values: Partial<T>) => void
  /** Back to these values, without any message. */
  reset: (values: T) => void
  setErrors: (fields: FieldErrors[]) => void
  /** The keys of a list's rows, for React (a row keeps its key as rows before it are removed). */
  rows: (list: ListKey<T>) => number[]
  /** Adds a row at the list's end (no change to save yet: an empty row is not sent). */
  add: (list: ListKey<T>, row: T[ListKey<T>] extends (infer R)[] ? R : never) => void
  /** Removes a row; the messages of the rows after it move up with them. */
  remove: (list: ListKey<T>, index: number) => void
  /** Hears each user's change by its top-level key ("vitals", "diagnoses"), as the library's form told its onValuesChange. */
  onChange: (heard: (key: string) => void) => () => void
}

/** A draft starting from initial. */
export function createDraft<T extends object>(initial: T): Draft<T> {
  let values = initial
  let errors: Record<Path, string[]> = {}
  let nextKey = 0
  const rowKeys: Record<string, number[]> = {}
  const fresh = (n: number) => Array.from({ length: n }, () => nextKey++)
  const listeners = new Set<() => void>()
  const changes = new Set<(key: string) => void>()
  const notify = () => listeners.forEach((l) => l())

  const rows = (list: string) => {
    const n = (read(values, list) as unknown[] | undefined)?.length ?? 0
    const keys = rowKeys[list] ?? (rowKeys[list] = fresh(n))
    // The list was replaced with one of another length: its rows are new.
    if (keys.length !== n) rowKeys[list] = fresh(n)
    return rowKeys[list]!
  }
  const put = (path: Path, value: unknown) => {
    if (Object.is(read(values, path), value)) return
    values = write(values, keysOf(path), value) as T
    notify()
  }
  const replace = (next: T) => {
    const before = values
    values = next
    for (const list of Object.keys(rowKeys)) if (read(before, list) !== read(next, list)) rowKeys[list] = fresh((read(next, list) as unknown[] | undefined)?.length ?? 0)
    return before
  }

  return {
    all: () => values,
    get: (path) => read(values, path),
    set: (path, value) => {
      put(path, value)
      changes.forEach((c) => c(keysOf(path)[0]!))
    },
    put,
    setMany: (part) => {
      const before = replace({ ...values, ...part })
      // As the library's setFieldsValue: a field given another value loses its message.
      const kept = Object.entries(errors).filter(([p]) => Object.is(read(before, p), read(values, p)))
      if (kept.length !== Object.keys(errors).length) errors = Object.fromEntries(kept)
      notify()
    },
    reset: (next) => {
      replace(next)
      errors = {}
      notify()
    },
    errors: (path) => errors[path],
    setErrors: (fields) => {
      const next = { ...errors }
      for (const { path, errors: e } of fields) {
        if (e.length > 0) next[path] = e
        else delete next[path]
      }
      errors = next
      notify()
    },
    rows: (list) => rows(list),
    add: (list, row) => {
      const keys = rows(list)
      values = write(values, [list], [...((read(values, list) as unknown[] | undefined) ?? []), row]) as T
      rowKeys[list] = [...keys, nextKey++]
      notify()
    },
    remove: (list, index) => {
      const keys = rows(list)
      values = write(values, [list], ((read(values, list) as unknown[] | undefined) ?? []).filter((_, i) => i !== index)) as T
      rowKeys[list] = keys.filter((_, i) => i !== index)
      const prefix = `${list}.`
      errors = Object.fromEntries(
        Object.entries(errors).flatMap(([p, e]) => {
          if (!p.startsWith(prefix)) return [[p, e]]
          const [row, ...rest] = p.slice(prefix.length).split('.')
          const i = Number(row)
          if (i === index) return []
          return [[i > index ? [list, i - 1, ...rest].join('.') : p, e]]
        }),
      )
      notify()
    },
    onChange: (heard) => {
      changes.add(heard)
      return () => changes.delete(heard)
    },
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
}

/** The value at path, in a component that renders again only when that value changes. */
export function useDraftValue<V = unknown>(draft: DraftReader, path: Path): V {
  const get = useCallback(() => draft.get(path) as V, [draft, path])
  return useSyncExternalStore(draft.subscribe, get)
}

/** The first message of the field at path, rendered again only when its messages change. */
export function useDraftError(draft: DraftReader, path: Path): string | undefined {
  const get = useCallback(() => draft.errors(path), [draft, path])
  const errors = useSyncExternalStore(draft.subscribe, get)
  return errors?.join(' ') || undefined
}

/** The keys of a list's rows, rendered again only when rows are added, removed or replaced. */
export function useDraftRows<T extends object>(draft: Draft<T>, list: ListKey<T>): number[] {
  const get = useCallback(() => draft.rows(list), [draft, list])
  return useSyncExternalStore(draft.subscribe, get)
}
