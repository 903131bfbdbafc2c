import { useEffect, useState } from 'react'

/** The time now (ms), read again every `every` ms: a waiting time shown on screen ticks on its own, without asking the server. */
export function useNow(every = 30_000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const id = setInterval(() => setNow(Date.now()), every)
    return () => clearInterval(id)
  }, [every])
  return now
}
