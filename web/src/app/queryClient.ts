import { QueryClient } from '@tanstack/react-query'
import { ApiError } from '../lib/api'

/** The app's one query cache (module-level so the API error handler can clear it at once). */
export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Client errors (401, 403, 404, 422) will not change on a retry.
      retry: (count, error) => count < 2 && !(error instanceof ApiError && error.status >= 400 && error.status < 500),
      refetchOnWindowFocus: false,
    },
  },
})
