// A value outside React that components read and follow (useSyncExternalStore): set it from
// anywhere, and every component using it renders with the new value.
import { useSyncExternalStore } from 'react'

export interface Store<T> {
  get: () => T
  set: (next: T) => void
  /** The value, in a component that renders again when it changes. */
  use: () => T
}

export function createStore<T>(initial: T): Store<T> {
  let value = initial
  const listeners = new Set<() => void>()
  const subscribe = (changed: () => void) => {
    listeners.add(changed)
    return () => listeners.delete(changed)
  }
  return {
    get: () => value,
    set: (next) => {
      if (Object.is(next, value)) return
      value = next
      listeners.forEach((l) => l())
    },
    use: () => useSyncExternalStore(subscribe, () => value),
  }
}
