import { useQueryClient, type QueryClient } from '@tanstack/react-query'

/**
 * A write of the data layer that then updates the query cache: fn as it is (same arguments, same
 * answer, same errors), and once it succeeds, then(queryClient, answer, …arguments). A feature's
 * api/ folder builds its operations' cache updates with it, so that screens call them and never
 * write the cache themselves (scripts/check-boundaries.mjs).
 */
export function useWrite<A extends unknown[], R>(fn: (...args: A) => Promise<R>, then: (queryClient: QueryClient, answer: R, ...args: A) => unknown) {
  const queryClient = useQueryClient()
  return async (...args: A) => {
    const answer = await fn(...args)
    void then(queryClient, answer, ...args)
    return answer
  }
}

/** A function that makes every view under key read again (a screen's "it changed" after a write, a conflict, a closed dialog). */
export function useRefresh(key: readonly unknown[]) {
  const queryClient = useQueryClient()
  return () => void queryClient.invalidateQueries({ queryKey: key })
}
