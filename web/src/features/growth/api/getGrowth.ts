import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { appointmentsKey } from '../../../lib/queryKeys'
import type { ResponseBody } from '../../../lib/schema'

/** A child's growth: points scored on the WHO standards, flags, SD curves (GET /api/patients/{id}/growth). */
export type Growth = ResponseBody<'/api/patients/{id}/growth', 'get'>
export type GrowthPoint = Growth['points'][number]
export type GrowthFlag = Growth['flags'][number]
export type Indicator = 'wfa' | 'lhfa' | 'wfl' | 'hcfa' | 'bfa'

/** Refreshed with the appointments: a visit completed or its vitals changed. */
export const useGrowth = (patientId: number) =>
  useQuery({ queryKey: [...appointmentsKey, 'growth', patientId], queryFn: () => get<Growth>(`/patients/${patientId}/growth`) })
