// The medicines a patient takes (issue 55, M4): those recorded as taken from elsewhere or over
// the counter, and the lines of prescriptions issued here whose supply lasts. The list sits
// under its patient's key, which the live channel refreshes when anyone changes it; a change
// here also re-runs the safety check of lines being written (under prescriptions').
import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { patientsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type CurrentMedicine = Schema<'CurrentMedicine'>

export type TakesNone = Schema<'TakesNone'>

/** The list, and when the patient last said they take no medicines (null: never asked). */
export const currentMedicinesQuery = (patientId: number) =>
  queryOptions({
    queryKey: [...patientsKey, patientId, 'current-medicines'],
    queryFn: () => get<{ data: CurrentMedicine[]; takes_none: TakesNone | null }>(`/patients/${patientId}/current-medicines`),
  })

export const useCurrentMedicines = (patientId: number) => useQuery({ ...currentMedicinesQuery(patientId), select: (r) => r.data })

export const useTakesNone = (patientId: number) => useQuery({ ...currentMedicinesQuery(patientId), select: (r) => r.takes_none })

/** How the patient takes it, and who or what said they take it. */
export const ADHERENCES = ['as_directed', 'irregular', 'not_taking'] as const

export const INFO_SOURCES = ['patient', 'carer', 'pharmacy', 'other_clinic', 'packet'] as const
