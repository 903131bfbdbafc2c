import { bmi, emptyVitals, vitalErrors } from './vitals'

describe('vitals', () => {
  it('computes the BMI to one decimal, only with weight and height', () => {
    expect(bmi({ weight: 70, height: 175 })).toBe(22.9)
    expect(bmi({ weight: 70, height: null })).toBeNull()
  })
  it('flags implausible values as the server does', () => {
    const v = { ...emptyVitals(), bp_systolic: 120, bp_diastolic: 130, spo2: 101, temperature: 36.6, heart_rate: 72.5 }
    expect(vitalErrors(v)).toEqual({ bp_diastolic: 'visit.diastolicAbove', spo2: 'visit.vitalRange.spo2', heart_rate: 'visit.vitalRange.heart_rate' })
    expect(vitalErrors(emptyVitals())).toEqual({})
  })
})
