import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { labTestsKey } from '../../../lib/queryKeys'
import type { LabTest } from './types'

export const listLabTests = async () => (await get<{ data: LabTest[] }>('/lab-tests')).data

export const labTestsQuery = () => queryOptions({ queryKey: labTestsKey, queryFn: listLabTests, staleTime: 300_000 })

/** The orderable tests; only for those who order them (enabled), so no screen asks for what its user may not use. */
export const useLabTests = (enabled = true) => useQuery({ ...labTestsQuery(), enabled })
