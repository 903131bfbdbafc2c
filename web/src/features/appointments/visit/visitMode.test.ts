import { describe, expect, it } from 'vitest'
import { visitMode } from './visitMode'

const doctor = { canDiagnose: true, canVitals: true }
const nurse = { canDiagnose: false, canVitals: true }
const reader = { canDiagnose: false, canVitals: false }

describe('visitMode', () => {
  it.each([
    ['a doctor writes a visit in progress', { ...doctor, status: 'in-progress' }, 'draft'],
    ['a doctor writes a completed visit not yet signed', { ...doctor, status: 'completed' }, 'draft'],
    ['a doctor records vitals before starting the visit', { ...doctor, status: 'arrived' }, 'vitals'],
    ['a nurse records vitals once the patient has arrived', { ...nurse, status: 'arrived' }, 'vitals'],
    ['a nurse records vitals during the visit', { ...nurse, status: 'in-progress' }, 'vitals'],
    ['a nurse reads a completed visit', { ...nurse, status: 'completed' }, 'read'],
    ['nobody writes before the patient arrives', { ...doctor, status: 'booked' }, 'read'],
    ['nobody writes a cancelled visit', { ...doctor, status: 'cancelled' }, 'read'],
    ['a reader reads', { ...reader, status: 'in-progress' }, 'read'],
  ] as const)('%s', (_, v, want) => {
    expect(visitMode({ signed: false, amending: false, ...v })).toBe(want)
  })

  it('a signed visit is read until a doctor amends it', () => {
    expect(visitMode({ signed: true, amending: false, ...doctor, status: 'completed' })).toBe('read')
    expect(visitMode({ signed: true, amending: true, ...doctor, status: 'completed' })).toBe('amend')
  })
})
