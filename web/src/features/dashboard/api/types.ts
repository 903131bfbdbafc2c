export const STATUSES = ['booked', 'arrived', 'in-progress', 'completed', 'cancelled', 'no-show'] as const
export const SEXES = ['female', 'male', 'other', 'unknown'] as const

export interface DayCounts {
  day: string
  by_status: Record<string, number>
}

export interface AppointmentFigures {
  today: DayCounts
  waiting: number
  /** The calling doctor's own queue today (doctors only). */
  mine?: DayCounts
  /** The last 30 days, oldest first. */
  days: DayCounts[]
}

export interface PatientFigures {
  total: number
  this_month: number
  months: { month: string; n: number }[]
  ages: { band: string; by_sex: Record<string, number> }[]
}

export interface DiagnosisFigures {
  month: string
  top: { code: string; label: string; n: number }[]
}

export const total = (c: DayCounts) => Object.values(c.by_status).reduce((a, b) => a + b, 0)
