import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { medicineSafetyKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type SafetyKnowledge = Schema<'SafetyKnowledge'>

/** What the medicine-safety check knows, and the clinic's own additions. */
export const medicineSafetyQuery = () => queryOptions({ queryKey: medicineSafetyKey, queryFn: () => get<SafetyKnowledge>('/medicine-safety') })

export const useMedicineSafety = () => useQuery(medicineSafetyQuery())
