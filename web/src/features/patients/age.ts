import dayjs from 'dayjs'

/** Whole years between a YYYY-MM-DD birth date and today. */
export const ageInYears = (birthDate: string, today = dayjs()) => today.diff(dayjs(birthDate), 'year')
