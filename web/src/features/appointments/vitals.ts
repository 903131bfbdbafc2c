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
  // Hypertension from 140/90 mmHg measured in the office (ESC/ESH 2018 guideline; the same
  // threshold in ESH 2023); hypotension below 90/60.
  bp_systolic: { low: 90, high: 140 },
  bp_diastolic: { low: 60, high: 90 },
  // A resting adult's heart rate up to 100 a minute; above is tachycardia, below 50
  // bradycardia (the threshold of the ESC 2021 pacing guideline).
  heart_rate: { low: 50, high: 101 },
  // 10 to 20 breaths a minute at rest; from 21 NEWS2 (Royal College of Physicians 2017)
  // scores 2, and it scores 9–11 as 1: 10 and 11 pass unmarked here.
  respiratory_rate: { low: 10, high: 21 },
  // Fever from 38.0 °C; hypothermia below 35.0 °C.
  temperature: { low: 35, high: 38 },
  // SpO2 below 94 % is below the 94–98 % target range of the BTS oxygen guideline (2017) for
  // a patient not at risk of hypercapnia; 100 % is not high.
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
