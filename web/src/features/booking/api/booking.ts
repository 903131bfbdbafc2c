import { queryOptions, useQuery } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { settingsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'
import { useWrite } from '../../../lib/write'

export type BookingSettings = Schema<'OnlineBookingSettings'>
export type BookingDoctor = BookingSettings['doctors'][number]

export const bookingSettingsKey = [...settingsKey, 'online-booking'] as const

export const useBookingSettings = () => useQuery(queryOptions({ queryKey: bookingSettingsKey, queryFn: () => get<BookingSettings>('/settings/online-booking') }))

/** The doctors who can be booked (every active doctor account). */
export const useBookableDoctors = () =>
  useQuery(
    queryOptions({
      queryKey: [...bookingSettingsKey, 'doctors'],
      queryFn: async (): Promise<{ id: number; name: string }[]> => (await get<{ data: { id: number; name: string }[] }>('/doctors')).data,
    }),
  )

/** Saves the rules at the version read; the page shows the server's field errors itself. */
export const saveBookingSettings = (v: Omit<BookingSettings, 'version'>, version: number) =>
  send<BookingSettings>('put', '/settings/online-booking', { ...v, version }, { silent: true })

/** saveBookingSettings, and the settings' readers get the saved ones. */
export const useSaveBookingSettings = () => useWrite(saveBookingSettings, (queryClient, saved) => queryClient.setQueryData(bookingSettingsKey, saved))
