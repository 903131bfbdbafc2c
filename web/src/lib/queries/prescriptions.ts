// Lists of prescriptions: the prescriptions' own screens read them, and an order set made of a
// visit takes its lines from the visit's.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../api'
import { prescriptionsKey } from '../queryKeys'
import type { Schema } from '../schema'

/** Whose prescriptions: a visit's, a patient's, or the blank pad's. */
export type Owner = { appointmentId: number } | { patientId: number } | { blank: true }

type Prescription = Schema<'Prescription'>

const listPath = (o: Owner) => ('appointmentId' in o ? `/appointments/${o.appointmentId}/prescriptions` : 'patientId' in o ? `/patients/${o.patientId}/prescriptions` : '/prescriptions')

/** A visit's, a patient's, or the blank pad's prescriptions, newest first. */
export const listPrescriptions = async (owner: Owner) => (await get<{ data: Prescription[] }>(listPath(owner))).data

export const prescriptionsQuery = (owner: Owner) => queryOptions({ queryKey: [...prescriptionsKey, owner], queryFn: () => listPrescriptions(owner) })

export const usePrescriptions = (owner: Owner, enabled = true) => useQuery({ ...prescriptionsQuery(owner), enabled })
