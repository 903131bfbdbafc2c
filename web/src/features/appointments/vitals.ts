import type { Schema } from '../../lib/schema'
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
  { key: 'head_circumference', unit: 'cm', min: 15, max: 70, step: 0.1, integer: false },
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
  head_circumference: null,
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

/** One row of the server's vital-sign bands for the patient's age (internal/appointment/vital_bands.tsv). */
export type VitalBand = Schema<'VitalBand'>

/** How a vital compares with its age's bands, as the server says it (an HL7 v3 interpretation code). */
export type VitalFlag = Schema<'VitalFlag'>

const severity: Record<string, number> = { L: 1, H: 1, LL: 2, HH: 2 }

const holds = (b: VitalBand, x: number) => (b.when === '<' ? x < b.limit : b.when === '>' ? x > b.limit : x >= b.limit)

/**
 * The flag of a value being typed, read from the bands the server sent with the visit by the
 * server's rule: the most severe row that holds; N only where the bands bound the vital on
 * both sides (SpO2 cannot exceed 100 %); none without a band for the age.
 */
export function flagOf(bands: VitalBand[], key: keyof Vitals, value: number | null | undefined): VitalFlag | undefined {
  if (value === null || value === undefined || Number.isNaN(value)) return undefined
  const rows = bands.filter((b) => b.vital === key)
  let worst: VitalBand | undefined
  for (const b of rows) if (holds(b, value) && (!worst || severity[b.flag] > severity[worst.flag])) worst = b
  if (worst) return { flag: worst.flag, when: worst.when, limit: worst.limit, ages: worst.ages, source: worst.source }
  const bounded = rows.some((b) => b.when === '<') && (rows.some((b) => b.when !== '<') || key === 'spo2')
  return bounded ? { flag: 'N', ages: rows[0].ages } : undefined
}
