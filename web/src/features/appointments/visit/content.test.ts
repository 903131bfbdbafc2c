import { describe, expect, it } from 'vitest'
import type { VisitContent } from '../api/types'
import { emptyVitals } from '../vitals'
import { sendable } from './content'

const loaded: VisitContent = { vitals: emptyVitals(), vitals_copied_from: '', chief_complaint: 'cough', present_illness: '', examination: '', diagnoses: [], orders: [], plan: '', follow_up_date: '' }

describe('sendable', () => {
  it('leaves out the rows still empty and says which row each sent diagnosis is', () => {
    const { content, rows } = sendable(loaded, {
      diagnoses: [
        { code: '', text: '  ', primary: false },
        { code: 'J06.9', text: '', primary: true },
        { code: '', text: ' viral rash ', primary: false },
      ],
    })
    expect(content.diagnoses).toEqual([
      { code: 'J06.9', text: '', primary: true },
      { code: '', text: 'viral rash', primary: false },
    ])
    expect(rows).toEqual([1, 2])
  })

  it('sends a diagnosis back with its key, so an edited one stays the same record', () => {
    const { content } = sendable(loaded, { diagnoses: [{ code: 'I10', text: 'treated', primary: true, key: 3 }, { code: '', text: 'new', primary: false }] })
    expect(content.diagnoses).toEqual([
      { code: 'I10', text: 'treated', primary: true, key: 3 },
      { code: '', text: 'new', primary: false },
    ])
  })

  it('keeps what was loaded that the form does not hold, and drops orders without a test', () => {
    const { content } = sendable(loaded, { orders: [{ code: 'CBC', note: undefined as unknown as string }, { code: '', note: 'x' }] })
    expect(content.chief_complaint).toBe('cough')
    expect(content.orders).toEqual([{ code: 'CBC', note: '' }])
  })

  it('says which form row each sent order is, so that a refused "orders.1.code" lands on its row past an empty one (a clinician’s review)', () => {
    const { content, orderRows } = sendable(loaded, { orders: [{ code: '', note: '' }, { code: 'CBC', note: '' }, { code: 'CBC', note: 'again' }] })
    expect(content.orders).toEqual([{ code: 'CBC', note: '' }, { code: 'CBC', note: 'again' }])
    expect(orderRows).toEqual([1, 2])
  })
})
