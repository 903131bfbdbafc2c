import type { Vitals } from './api/types'

/** The plausible ranges the server checks too (internal/appointment/visit.go), with units (i18n keys under visit.units). */
export const VITAL_FIELDS: { key: keyof Vitals; unit: string; min: number; max: number; step: number; integer: boolean }[] = [
  { key: 'bp_systolic', unit: 'mmHg', min: 50, max: 300, step: 1, integer: true },
  { key: 'bp_diastolic', unit: 'mmHg', min: 20, max: 200, step: 1, integer: true },
  { key: 'heart_rate', unit: 'perMin', min: 20, max: 300, step: 1, integer: true },
  { key: 'respiratory_rate', unit: 'perMin', min: 4, max: 80, step: 1, integer: true },
  { key: 'temperature', unit: 'celsius', min: 30, max: 45, step: 0.1, integer: false },
  { key: 'spo2', unit: 'percent', min: 50, max: 100, step: 1, integer: true },
  { key: 'weight', unit: 'kg', min: 0.3, max: 500, step: 0.1, integer: false },
  { key: 'height', unit: 'cm', min: 20, max: 280, step: 0.5, integer: false },
]

export const emptyVitals = (): Vitals => ({
  bp_systolic: null,
  bp_diastolic: null,
  heart_rate: null,
  respiratory_rate: null,
  temperature: null,
  spo2: null,
  weight: null,
  height: null,
})

/** Body-mass index, weight / height², to one decimal; null without both. */
export function bmi(v: Pick<Vitals, 'weight' | 'height'>): number | null {
  if (!v.weight || !v.height) return null
  const m = v.height / 100
  return Math.round((v.weight / (m * m)) * 10) / 10
}

/** The vitals that are out of their range (an i18n key per field), as the server would say. */
export function vitalErrors(v: Vitals): Partial<Record<keyof Vitals, string>> {
  const out: Partial<Record<keyof Vitals, string>> = {}
  for (const f of VITAL_FIELDS) {
    const x = v[f.key]
    if (x === null || x === undefined) continue
    if (Number.isNaN(x) || x < f.min || x > f.max || (f.integer && !Number.isInteger(x))) out[f.key] = `visit.vitalRange.${f.key}`
  }
  if (!out.bp_diastolic && v.bp_systolic != null && v.bp_diastolic != null && v.bp_diastolic >= v.bp_systolic) out.bp_diastolic = 'visit.diastolicAbove'
  return out
}

/**
 * The usual resting range of an adult for each vital (below low or at/above high is marked):
 * a prompt to look again, not a diagnosis — children's ranges differ, and the screen says
 * "adult".
 */
export const ADULT_RANGES: Partial<Record<keyof Vitals, { low: number; high: number }>> = {
  bp_systolic: { low: 90, high: 140 },
  bp_diastolic: { low: 60, high: 90 },
  heart_rate: { low: 50, high: 101 },
  respiratory_rate: { low: 10, high: 21 },
  temperature: { low: 35, high: 38 },
  spo2: { low: 94, high: 101 },
}

/** Whether a vital lies below or above the usual adult range; undefined inside it or when not measured. */
export function vitalFlag(key: keyof Vitals, value: number | null | undefined): 'low' | 'high' | undefined {
  const r = ADULT_RANGES[key]
  if (!r || value === null || value === undefined || Number.isNaN(value)) return undefined
  if (value < r.low) return 'low'
  if (value >= r.high) return 'high'
  return undefined
}
