import { describe, expect, it } from 'vitest'
import type { Recommendation } from './api/types'
import { groupNext } from './group'

const rec = (antigen: string, due_on: string, ...vaccines: string[]): Recommendation => ({
  antigen,
  schedule: 'vn_epi',
  dose_number: 1,
  doses: 3,
  due_on,
  status: 'due',
  vaccines,
  source: '',
  outside_programme: false,
})
const shape = (recs: Recommendation[], stocked?: string[]) => groupNext(recs, stocked).map((v) => [v.due_on, v.vaccine, v.doses.map((d) => d.antigen)])

describe('groupNext', () => {
  it('makes one visit of the doses one product gives on the same day', () => {
    const six = ['diphtheria', 'tetanus', 'pertussis', 'polio', 'hib', 'hepb'].map((a) => rec(a, '2026-03-01', a === 'polio' ? 'ipv' : 'other', 'dtap_ipv_hib_hepb'))
    expect(shape(six)).toEqual([['2026-03-01', 'dtap_ipv_hib_hepb', ['diphtheria', 'tetanus', 'pertussis', 'polio', 'hib', 'hepb']]])
  })
  it('keeps doses due on different days apart', () => {
    expect(shape([rec('measles', '2026-09-01', 'mmr'), rec('mumps', '2026-10-01', 'mmr')])).toEqual([
      ['2026-09-01', 'mmr', ['measles']],
      ['2026-10-01', 'mmr', ['mumps']],
    ])
  })
  it('keeps doses with no product in common apart', () => {
    expect(shape([rec('tb', '2026-01-01', 'bcg'), rec('hepb', '2026-01-01', 'hepb_paed')])).toEqual([
      ['2026-01-01', 'bcg', ['tb']],
      ['2026-01-01', 'hepb_paed', ['hepb']],
    ])
  })
  it('takes the product the clinic stocks first: the 5-in-1 and IPV, not a 6-in-1 it lacks', () => {
    const recs = ['diphtheria', 'tetanus', 'pertussis', 'hib', 'hepb'].map((a) => rec(a, '2026-03-01', 'dtap_ipv_hib_hepb', 'dtwp_hepb_hib'))
    recs.push(rec('polio', '2026-03-01', 'ipv', 'dtap_ipv_hib_hepb'))
    expect(shape(recs, ['dtwp_hepb_hib', 'ipv'])).toEqual([
      ['2026-03-01', 'dtwp_hepb_hib', ['diphtheria', 'tetanus', 'pertussis', 'hib', 'hepb']],
      ['2026-03-01', 'ipv', ['polio']],
    ])
  })
  it('orders visits by day and keeps a dose with no product alone', () => {
    expect(shape([rec('rubella', '2026-09-01', 'mmr'), rec('hpv', '2026-05-01'), rec('measles', '2026-09-01', 'mmr')])).toEqual([
      ['2026-05-01', '', ['hpv']],
      ['2026-09-01', 'mmr', ['rubella', 'measles']],
    ])
  })
})
