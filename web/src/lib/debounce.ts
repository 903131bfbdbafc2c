import { useEffect, useState } from 'react'
/** Delays calls to fn until `wait` ms have passed without another call; cancel() drops a pending call. */
export function debounce<A extends unknown[]>(fn: (...args: A) => void, wait: number) {
  let timer: ReturnType<typeof setTimeout> | undefined
  const debounced = (...args: A) => {
    clearTimeout(timer)
    timer = setTimeout(() => fn(...args), wait)
  }
  debounced.cancel = () => clearTimeout(timer)
  return debounced
}

/** value, once it has stopped changing for wait ms (compared by its JSON, so a new object of the same content is no change). */
export function useDebounced<T>(value: T, wait: number): T {
  const key = JSON.stringify(value)
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), wait)
    return () => clearTimeout(timer)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the key stands for the value
  }, [key, wait])
  return settled
}
