// A patient's age as paediatric practice writes it: days under a month, months under two
// years, then years — an infant is never "0 years". Every place that shows a patient's age
// (the banner, the chart, the patient list) goes through it.
import dayjs from 'dayjs'
import i18n from 'i18next'

export type AgeUnit = 'days' | 'months' | 'years'

/** The age's unit and count on day today: whole days under a month, whole months under 24, whole years after. */
export function ageParts(birthDate: string, today = dayjs()): { unit: AgeUnit; count: number } {
  const birth = dayjs(birthDate)
  const months = today.diff(birth, 'month')
  if (months < 1) return { unit: 'days', count: Math.max(0, today.startOf('day').diff(birth.startOf('day'), 'day')) }
  if (months < 24) return { unit: 'months', count: months }
  return { unit: 'years', count: today.diff(birth, 'year') }
}

const KEY: Record<AgeUnit, string> = { days: 'patients.ageDays', months: 'patients.ageMonths', years: 'patients.ageYears' }

/** The age in the user's language, with its plural form ("12 days", "7 months", "3 y"). */
export function formatAge(birthDate: string, today = dayjs()): string {
  const { unit, count } = ageParts(birthDate, today)
  return i18n.t(KEY[unit], { count })
}
