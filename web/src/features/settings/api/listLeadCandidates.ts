import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { doctorsKey } from '../../../lib/queryKeys'
import type { ResponseBody } from '../../../lib/schema'

type Doctor = ResponseBody<'/api/doctors', 'get'>['data'][number]

/** Who may be the clinic's medical lead in the critical-result settings: the active doctors, by name. */
export const useLeadCandidates = () =>
  useQuery({ queryKey: doctorsKey, queryFn: async () => (await get<{ data: Doctor[] }>('/doctors')).data, staleTime: 60_000 })
