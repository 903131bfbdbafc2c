import { bmi, emptyVitals, flagOf, vitalErrors, type VitalBand } from './vitals'

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

describe('flagOf', () => {
  // Rows as the server sends them with a visit of a 6-month-old and of an adult
  // (internal/appointment/vital_bands.tsv): the browser flags a value being typed by them.
  const row = (vital: VitalBand['vital'], flag: VitalBand['flag'], when: VitalBand['when'], limit: number, ages: string): VitalBand => ({
    vital, flag, when, limit, ages, from_months: 0, to_months: null, source: 'test',
  })
  const infant = [
    row('heart_rate', 'LL', '<', 60, 'under 1 year'),
    row('heart_rate', 'L', '<', 110, 'under 1 year'),
    row('heart_rate', 'H', '>', 160, 'under 1 year'),
    row('respiratory_rate', 'H', '>=', 50, '2–11 months'),
    row('respiratory_rate', 'L', '<', 30, '2–11 months'),
    row('bp_systolic', 'L', '<', 70, '1–11 months'),
    row('spo2', 'L', '<', 94, 'all ages'),
  ]
  const adult = [row('bp_systolic', 'L', '<', 90, '18 years and over'), row('bp_systolic', 'H', '>=', 140, '18 years and over'), row('bp_systolic', 'HH', '>=', 180, '18 years and over')]
  it.each([
    ['an infant heart rate of 70 is low (APLS)', infant, 'heart_rate', 70, 'L'],
    ['an infant heart rate of 55 is severely low (PALS)', infant, 'heart_rate', 55, 'LL'],
    ['an infant heart rate of 130 is within the band', infant, 'heart_rate', 130, 'N'],
    ['50 breaths at 6 months is fast breathing (WHO IMCI)', infant, 'respiratory_rate', 50, 'H'],
    ['a systolic with a low limit only is not called normal', infant, 'bp_systolic', 150, undefined],
    ['SpO2 of 99 % is normal: it cannot exceed 100', infant, 'spo2', 99, 'N'],
    ['weight has no band', infant, 'weight', 7, undefined],
    ['an adult systolic of 142 is high (ESH 2023)', adult, 'bp_systolic', 142, 'H'],
    ['an adult systolic of 200 is severe (ESH 2023 grade 3)', adult, 'bp_systolic', 200, 'HH'],
    ['nothing typed, no flag', adult, 'bp_systolic', null, undefined],
  ] as const)('%s', (_, bands, key, value, want) => {
    expect(flagOf([...bands], key, value)?.flag).toBe(want)
  })
  it('names the age band of the row that holds', () => {
    expect(flagOf(infant, 'heart_rate', 70)).toMatchObject({ flag: 'L', when: '<', limit: 110, ages: 'under 1 year' })
  })
})
