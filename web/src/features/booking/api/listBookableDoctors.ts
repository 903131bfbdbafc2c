import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { bookingSettingsKey } from './booking'

/** The doctors who can be booked (every active doctor account). */
export const useBookableDoctors = () =>
  useQuery(
    queryOptions({
      queryKey: [...bookingSettingsKey, 'doctors'],
      queryFn: async (): Promise<{ id: number; name: string }[]> => (await get<{ data: { id: number; name: string }[] }>('/doctors')).data,
    }),
  )
