import { send } from '../../../lib/api'
import { useWrite } from '../../../lib/write'
import { type BookingSettings, bookingSettingsKey } from './booking'

/** Saves the rules at the version read; the page shows the server's field errors itself. */
export const saveBookingSettings = (v: Omit<BookingSettings, 'version'>, version: number) =>
  send<BookingSettings>('put', '/settings/online-booking', { ...v, version }, { silent: true })

/** saveBookingSettings, and the settings' readers get the saved ones. */
export const useSaveBookingSettings = () => useWrite(saveBookingSettings, (queryClient, saved) => queryClient.setQueryData(bookingSettingsKey, saved))
