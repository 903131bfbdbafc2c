/** A dose by weight worked out for a patient: mg for the dose, and mL where the medicine is a liquid of known strength. */
export interface WeightDose {
  perKg: number
  mg: number
  ml?: number
  /** The dose reached the line's most for one dose ("max 1000 mg") and was held there. */
  capped?: boolean
}

const PER_KG = /(\d+(?:[.,]\d+)?)\s*(?:mg|мг)\s*\/\s*(?:kg|кг)/i
const STRENGTH = /(\d+(?:[.,]\d+)?)\s*(?:mg|мг)\s*\/\s*(\d+(?:[.,]\d+)?)\s*(?:mL|ml|мл)/i
const MAX = /(?:max|не более|最多|tối đa)\s*(\d+(?:[.,]\d+)?)\s*(?:mg|мг)/i
const num = (s: string) => Number(s.replace(',', '.'))

/**
 * The dose a line written "15 mg/kg" comes to at weight kg (rounded to whole mg), never more
 * than the most for one dose the line names ("15 mg/kg (max 1000 mg)": BNFc, a heavy child
 * gets the adult dose, not more), and for a liquid labelled "120 mg/5 mL" its volume (to
 * 0.1 mL); null when the line is not by weight.
 */
export function weightDose(dose: string, medicine: string, kg: number): WeightDose | null {
  const m = PER_KG.exec(dose)
  if (!m || !(kg > 0)) return null
  const perKg = num(m[1])
  let mg = Math.round(perKg * kg)
  const most = MAX.exec(dose)
  const capped = most != null && mg > num(most[1])
  if (capped) mg = num(most[1])
  const s = STRENGTH.exec(medicine)
  const out: WeightDose = { perKg, mg }
  if (capped) out.capped = true
  if (s) out.ml = Math.round(((mg * num(s[2])) / num(s[1])) * 10) / 10
  return out
}

/** Whether a line's dose is written per kilogram of body weight. */
export const byWeight = (dose: string) => PER_KG.test(dose)
