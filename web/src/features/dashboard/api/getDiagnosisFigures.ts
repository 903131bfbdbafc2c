import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { appointmentsKey } from '../../../lib/queryKeys'
import type { DiagnosisFigures } from './types'

/** This month's ten most frequent diagnoses (a signed visit is an appointment change). */
export const getDiagnosisFigures = () => get<DiagnosisFigures>('/dashboard/diagnoses')

// Under the key the live channel refreshes: a change anywhere re-reads these figures.
export const diagnosisFiguresQuery = () => queryOptions({ queryKey: [...appointmentsKey, 'dashboard', 'diagnoses'], queryFn: getDiagnosisFigures })

export const useDiagnosisFigures = (enabled: boolean) => useQuery({ ...diagnosisFiguresQuery(), enabled })
