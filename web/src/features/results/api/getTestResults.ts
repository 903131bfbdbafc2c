import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { labTestsKey } from '../../../lib/queryKeys'
import type { TestResults } from './types'

/** What the order's test reports: analytes, units, answers, ranges (the recording form's). */
export const useTestResults = (code: string | undefined) =>
  useQuery({ queryKey: [...labTestsKey, 'results', code], queryFn: () => get<TestResults>(`/lab-tests/${encodeURIComponent(code!)}`), enabled: !!code, staleTime: 5 * 60_000 })
