/** A dose by weight worked out for a patient: mg for the dose, and mL where the medicine is a liquid of known strength. */
export interface WeightDose {
  perKg: number
  mg: number
  ml?: number
}

const PER_KG = /(\d+(?:[.,]\d+)?)\s*(?:mg|мг)\s*\/\s*(?:kg|кг)/i
const STRENGTH = /(\d+(?:[.,]\d+)?)\s*(?:mg|мг)\s*\/\s*(\d+(?:[.,]\d+)?)\s*(?:mL|ml|мл)/i
const num = (s: string) => Number(s.replace(',', '.'))

/**
 * The dose a line written "15 mg/kg" comes to at weight kg (rounded to whole mg), and for a
 * liquid labelled "120 mg/5 mL" its volume (to 0.1 mL); null when the line is not by weight.
 */
export function weightDose(dose: string, medicine: string, kg: number): WeightDose | null {
  const m = PER_KG.exec(dose)
  if (!m || !(kg > 0)) return null
  const perKg = num(m[1])
  const mg = Math.round(perKg * kg)
  const s = STRENGTH.exec(medicine)
  if (!s) return { perKg, mg }
  const ml = Math.round(((mg * num(s[2])) / num(s[1])) * 10) / 10
  return { perKg, mg, ml }
}

/** Whether a line's dose is written per kilogram of body weight. */
export const byWeight = (dose: string) => PER_KG.test(dose)
