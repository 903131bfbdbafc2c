import dayjs from 'dayjs'

/** The API's and the address bar's day format. */
export const DATE = 'YYYY-MM-DD'

/** Monday of the week that contains day. */
export const weekStart = (day: string) => {
  const d = dayjs(day)
  return d.subtract((d.day() + 6) % 7, 'day').format(DATE)
}
