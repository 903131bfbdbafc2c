import { describe, expect, it } from 'vitest'
import type { VisitContent } from '../api/types'
import { emptyVitals } from '../vitals'
import { COPYABLE, copyInto, hasPart, tickedAtFirst } from './CopyForwardDialog'

const draft: VisitContent = {
  vitals: emptyVitals(), vitals_copied_from: '', chief_complaint: 'Cough', present_illness: '', examination: '',
  diagnoses: [{ code: 'J06.9', text: '', primary: true }], orders: [], plan: '', follow_up_date: '',
}
const before: VisitContent = {
  ...draft,
  vitals: { ...emptyVitals(), bp_systolic: 150, bp_diastolic: 95 },
  chief_complaint: 'Headaches',
  examination: 'Lungs clear.',
  diagnoses: [{ code: 'I10', text: '', primary: true }, { code: 'J06.9', text: '', primary: false }],
  plan: '',
}

describe('copy forward', () => {
  it('adds copied text after what is typed, adds only the diagnoses missing (never a second primary), and dates copied vitals', () => {
    const out = copyInto(draft, before, '2026-11-20', ['vitals', 'chief_complaint', 'examination', 'diagnoses'])
    expect(out.chief_complaint).toBe('Cough\nHeadaches')
    expect(out.examination).toBe('Lungs clear.')
    expect(out.diagnoses).toEqual([{ code: 'J06.9', text: '', primary: true }, { code: 'I10', text: '', primary: false }])
    expect(out.vitals.bp_systolic).toBe(150)
    expect(out.vitals_copied_from).toBe('2026-11-20')
  })

  it('copies only the chosen parts, and offers only the parts the earlier visit has', () => {
    const out = copyInto(draft, before, '2026-11-20', ['examination'])
    expect(out.vitals_copied_from).toBe('')
    expect(out.chief_complaint).toBe('Cough')
    expect(hasPart(before, 'plan')).toBe(false)
    expect(hasPart(before, 'vitals')).toBe(true)
  })

  // Clinic-day review, m7: copying measurements forward is opt-in; the history parts stay ticked.
  it('leaves vitals unticked at first and ticks the history parts', () => {
    expect(tickedAtFirst([...COPYABLE])).toEqual(['chief_complaint', 'present_illness', 'examination', 'diagnoses', 'plan'])
    expect(tickedAtFirst(['vitals'])).toEqual([])
  })
})
