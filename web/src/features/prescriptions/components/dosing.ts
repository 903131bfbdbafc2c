// Doses by weight (issue 59, item 6): the dose a child's line gets from mg/kg and the latest
// weight, capped at the most one dose may hold, and for a liquid the volume a syringe measures.
import type { CheckResult } from '../../../lib/queries/prescriptionCheck'

export type LineDoses = CheckResult['doses'][number]
export type DoseRow = LineDoses['rows'][number]
export type WeightFacts = NonNullable<CheckResult['weight']>

/** The smaller of the limits that are set (above 0), or 0 (none). */
const lowest = (a: number, b: number) => (a <= 0 ? Math.max(b, 0) : b <= 0 ? a : Math.min(a, b))

/** The most one dose and one day may hold for a child of weight kg (0: no limit), as the server reads the table. */
export const maxDose = (row: DoseRow, weight: number) => lowest(row.max_mg_per_kg_dose * weight, row.max_dose_mg)
export const maxDay = (row: DoseRow, weight: number) => lowest(row.max_day_mg_per_kg * weight, row.max_day_mg)

export interface Dose {
  /** The dose in mg, as measured (a liquid's volume rounded, then back to mg). */
  mg: number
  /** For a liquid, the volume in mL to give. */
  ml?: number
  /** The dose was held at the most one dose may hold. */
  capped: boolean
  maxDose: number
  maxDay: number
}

/** A volume rounded to what an oral syringe measures: 0.1 mL under 10 mL, 0.5 mL from 10. */
const step = (ml: number) => (ml < 10 ? 0.1 : 0.5)
const roundTo = (n: number, s: number, how: (x: number) => number) => Math.round(how(n / s + 1e-9) * s * 100) / 100

/**
 * The dose of mgPerKg for weight kg, held at the row's most a dose of any weight (1 g of
 * paracetamol); a liquid's volume rounded to the syringe's step, down when rounding up would pass
 * the most a dose for the weight. A dose the prescriber chose above that most is shown as it is
 * (the safety check asks for the reason).
 */
export function doseFor(row: DoseRow, mgPerKg: number, weight: number, strength: LineDoses['strength']): Dose {
  const most = maxDose(row, weight)
  const raw = mgPerKg * weight
  const capped = row.max_dose_mg > 0 && raw > row.max_dose_mg
  let mg = capped ? row.max_dose_mg : raw
  let ml: number | undefined
  if (strength && strength.per_ml > 0 && strength.mg > 0) {
    const perMl = strength.mg / strength.per_ml
    ml = roundTo(mg / perMl, step(mg / perMl), Math.round)
    if (most > 0 && mg <= most * 1.0001 && ml * perMl > most * 1.0001) ml = roundTo(mg / perMl, step(mg / perMl), Math.floor)
    mg = ml * perMl
  }
  return { mg: Math.round(mg * 10) / 10, ml, capped, maxDose: Math.round(most * 10) / 10, maxDay: Math.round(maxDay(row, weight) * 10) / 10 }
}
