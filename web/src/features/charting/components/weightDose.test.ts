import { describe, expect, it } from 'vitest'
import { byWeight, weightDose } from './weightDose'

// Paracetamol 15 mg/kg a dose (BNFc; WHO Pocket Book 2013), syrup 120 mg/5 mL: 0.625 mL/kg.
describe('weightDose', () => {
  it.each([
    ['15 mg/kg', 'Paracetamol 120 mg/5 mL syrup', 12, { perKg: 15, mg: 180, ml: 7.5 }],
    ['15 мг/кг', 'Парацетамол 120 mg/5 mL сироп', 9.4, { perKg: 15, mg: 141, ml: 5.9 }],
    ['15 mg/kg', 'Paracetamol 500 mg tablet', 40, { perKg: 15, mg: 600 }],
    ['7,5 mg/kg', 'Ibuprofen 100 mg/5 mL suspension', 10, { perKg: 7.5, mg: 75, ml: 3.8 }],
    // BNFc: never more than the adult's 1 g a dose, however heavy the child.
    ['15 mg/kg (max 1000 mg)', 'Paracetamol 120 mg/5 mL syrup', 70, { perKg: 15, mg: 1000, ml: 41.7, capped: true }],
    ['15 мг/кг (не более 1000 мг)', 'Парацетамол 500 mg таблетки', 80, { perKg: 15, mg: 1000, capped: true }],
    ['15 mg/kg（最多1000 mg）', 'Paracetamol 120 mg/5 mL syrup', 20, { perKg: 15, mg: 300, ml: 12.5 }],
    ['15 mg/kg (tối đa 1000 mg)', 'Paracetamol 120 mg/5 mL siro', 66.7, { perKg: 15, mg: 1000, ml: 41.7, capped: true }],
  ])('%s of %s at %s kg', (dose, medicine, kg, want) => {
    expect(weightDose(dose, medicine, kg)).toEqual(want)
  })

  it('is nothing for a dose not by weight, or without a weight', () => {
    expect(weightDose('1–2 tablets', 'Paracetamol 500 mg tablet', 70)).toBeNull()
    expect(weightDose('15 mg/kg', 'Paracetamol 120 mg/5 mL syrup', 0)).toBeNull()
    expect(byWeight('15 mg/kg')).toBe(true)
    expect(byWeight('200–400 mL')).toBe(false)
  })
})
