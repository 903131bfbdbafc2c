import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { doctorsKey } from '../../../lib/queryKeys'
import type { Doctor } from './types'

/** The doctors who can be booked, by name. */
export const listDoctors = async () => (await get<{ data: Doctor[] }>('/doctors')).data

export const doctorsQuery = () => queryOptions({ queryKey: doctorsKey, queryFn: listDoctors, staleTime: 60_000 })

export const useDoctors = () => useQuery(doctorsQuery())
