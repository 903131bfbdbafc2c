import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { prescriptionsKey } from '../../../lib/queryKeys'
import type { Owner, Prescription } from './types'

const listPath = (o: Owner) => ('appointmentId' in o ? `/appointments/${o.appointmentId}/prescriptions` : 'patientId' in o ? `/patients/${o.patientId}/prescriptions` : '/prescriptions')

/** A visit's, a patient's, or the blank pad's prescriptions, newest first. */
export const listPrescriptions = async (owner: Owner) => (await get<{ data: Prescription[] }>(listPath(owner))).data

export const prescriptionsQuery = (owner: Owner) => queryOptions({ queryKey: [...prescriptionsKey, owner], queryFn: () => listPrescriptions(owner) })

export const usePrescriptions = (owner: Owner, enabled = true) => useQuery({ ...prescriptionsQuery(owner), enabled })
