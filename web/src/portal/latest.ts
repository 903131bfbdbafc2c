import { useEffect, useRef } from 'react'

/**
 * The latest of a value, for an effect's callbacks that must not make it run again: the page's
 * language and words. A read that does not depend on them (appointments, contact details,
 * sessions, free times) is not read again, and re-audited, when the patient switches language,
 * and an unsaved choice in a form is not overwritten.
 */
export function useLatest<T>(value: T) {
  const ref = useRef(value)
  useEffect(() => {
    ref.current = value
  }, [value])
  return ref
}
