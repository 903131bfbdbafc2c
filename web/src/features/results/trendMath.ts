// The numbers behind the trends: which vitals chart together, and a canonical value in
// another unit of its analyte (the unit toggle), as the server converts it.

export interface VitalsRow {
  appointment_id: number
  day: string
  vitals: Record<string, number | null | undefined>
  bmi: number | null
}

interface Field {
  label: string
  unit: string
  read: (d: VitalsRow) => number | null
}

const field = (key: string, label: string, unit: string): Field => ({ label, unit, read: (d) => d.vitals[key] ?? null })

/** The vitals charts: blood pressure's two numbers on one chart, the rest alone. */
export const VITAL_SERIES: { key: string; label: string; decimals: number; fields: Field[] }[] = [
  { key: 'bp', label: 'results.vitals.bp', decimals: 0, fields: [field('bp_systolic', 'results.vitals.systolic', 'results.vitals.mmHg'), field('bp_diastolic', 'results.vitals.diastolic', 'results.vitals.mmHg')] },
  { key: 'hr', label: 'results.vitals.hr', decimals: 0, fields: [field('heart_rate', 'results.vitals.hr', 'results.vitals.bpm')] },
  { key: 'temp', label: 'results.vitals.temp', decimals: 1, fields: [field('temperature', 'results.vitals.temp', 'results.vitals.celsius')] },
  { key: 'weight', label: 'results.vitals.weight', decimals: 1, fields: [field('weight', 'results.vitals.weight', 'results.vitals.kg')] },
  { key: 'bmi', label: 'results.vitals.bmi', decimals: 1, fields: [{ label: 'results.vitals.bmi', unit: 'results.vitals.kgm2', read: (d) => d.bmi }] },
  { key: 'spo2', label: 'results.vitals.spo2', decimals: 0, fields: [field('spo2', 'results.vitals.spo2', 'results.vitals.percent')] },
]

interface Convertible {
  unit: string
  units: { unit: string; conversion: string; factor?: number }[]
}

/** A canonical value in unit: divided by the unit's factor, or HbA1c's IFCC equation. */
export function convert(a: Convertible, canonical: number, unit: string): number {
  if (unit === a.unit) return canonical
  const u = a.units.find((x) => x.unit === unit)
  if (!u) return canonical
  if (u.conversion === 'hba1c_ifcc') return (canonical - 2.15) * 10.929
  return u.factor ? canonical / u.factor : canonical
}
