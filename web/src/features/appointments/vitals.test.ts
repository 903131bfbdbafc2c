import { bmi, emptyVitals, vitalErrors, vitalFlag } from './vitals'

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

describe('vitalFlag', () => {
  it('marks what lies outside the usual adult range, and nothing else', () => {
    expect(vitalFlag('bp_systolic', 150)).toBe('high')
    expect(vitalFlag('bp_systolic', 139)).toBeUndefined()
    expect(vitalFlag('temperature', 38.4)).toBe('high')
    expect(vitalFlag('spo2', 91)).toBe('low')
    expect(vitalFlag('spo2', 100)).toBeUndefined()
    expect(vitalFlag('heart_rate', 44)).toBe('low')
    expect(vitalFlag('weight', 120)).toBeUndefined()
    expect(vitalFlag('heart_rate', null)).toBeUndefined()
  })
})
