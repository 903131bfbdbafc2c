import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { settingsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type BookingSettings = Schema<'OnlineBookingSettings'>

export type BookingDoctor = BookingSettings['doctors'][number]

export const bookingSettingsKey = [...settingsKey, 'online-booking'] as const

export const useBookingSettings = () => useQuery(queryOptions({ queryKey: bookingSettingsKey, queryFn: () => get<BookingSettings>('/settings/online-booking') }))
