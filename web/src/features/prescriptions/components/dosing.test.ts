import { describe, expect, it } from 'vitest'
import { doseFor, type DoseRow } from './dosing'

const paracetamol: DoseRow = {
  ingredients: 'paracetamol', indication: 'pain_fever', min_age_months: 1, min_weight_kg: 0, max_weight_kg: 0, mg_per_kg: 15, max_mg_per_kg_dose: 15,
  doses_per_day: 4, max_dose_mg: 1000, max_day_mg_per_kg: 60, max_day_mg: 4000, confirmed: 'yes', source: 'NPS MedicineWise',
}
const syrup = { mg: 120, per_ml: 5 }

describe('doseFor', () => {
  it('works the dose out from mg/kg and the weight, and a liquid in mL a syringe measures', () => {
    expect(doseFor(paracetamol, 15, 12, syrup)).toEqual({ mg: 180, ml: 7.5, capped: false, maxDose: 180, maxDay: 720 })
    // 15 × 12.4 = 186 mg = 7.75 mL: 7.8 mL would pass 186 mg, so 7.7 mL (184.8 mg)
    expect(doseFor(paracetamol, 15, 12.4, syrup)).toMatchObject({ ml: 7.7, mg: 184.8 })
    // 10 mg/kg × 12.4 = 124 mg = 5.17 mL → 5.2 mL
    expect(doseFor(paracetamol, 10, 12.4, syrup)).toMatchObject({ ml: 5.2, mg: 124.8 })
    // from 10 mL, half millilitres: 15 × 30 = 450 mg = 18.75 mL → 18.5 mL (19 would pass 450 mg)
    expect(doseFor(paracetamol, 15, 30, syrup)).toMatchObject({ ml: 18.5, mg: 444 })
  })
  it('holds a dose at the most one dose may hold, and a tablet in mg', () => {
    expect(doseFor(paracetamol, 15, 80, null)).toEqual({ mg: 1000, ml: undefined, capped: true, maxDose: 1000, maxDay: 4000 })
    // 25 mg/kg is above the most for 12 kg (180 mg): shown as chosen, the check asks why
    expect(doseFor(paracetamol, 25, 12, syrup)).toMatchObject({ mg: 300, ml: 12.5, capped: false, maxDose: 180 })
  })
})
