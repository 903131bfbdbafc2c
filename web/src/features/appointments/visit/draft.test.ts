import { describe, expect, it, vi } from 'vitest'
import { createDraft } from './draft'

interface Form {
  vitals: { weight: number | null; height: number | null }
  plan: string
  diagnoses: { code: string; text: string }[]
}

const start = (): Form => ({ vitals: { weight: 70, height: null }, plan: 'Rest', diagnoses: [{ code: 'I10', text: '' }, { code: '', text: 'Headache' }] })

describe('the visit draft', () => {
  it('reads and sets by path, leaving every other path as it was (its fields do not render)', () => {
    const d = createDraft(start())
    const before = d.all()
    d.set('vitals.height', 175)
    expect(d.get('vitals.height')).toBe(175)
    expect(d.get('diagnoses.1.text')).toBe('Headache')
    expect(d.get('diagnoses')).toBe(before.diagnoses)
    expect(d.get('plan')).toBe(before.plan)
    expect(before.vitals.height).toBeNull() // the old values are not changed in place
  })

  it('tells a user’s change by its top-level part, and not what the form sets itself or is given', () => {
    const d = createDraft(start())
    const heard = vi.fn()
    const stop = d.onChange(heard)
    d.set('diagnoses.0.text', 'Essential')
    d.put('diagnoses.1.code', 'R51')
    d.setMany({ plan: 'Ibuprofen' })
    expect(heard.mock.calls).toEqual([['diagnoses']])
    stop()
    d.set('plan', 'x')
    expect(heard).toHaveBeenCalledTimes(1)
  })

  it('tells its followers only when something changed', () => {
    const d = createDraft(start())
    const follower = vi.fn()
    d.subscribe(follower)
    d.set('plan', 'Rest')
    expect(follower).not.toHaveBeenCalled()
    d.set('plan', 'Walk')
    expect(follower).toHaveBeenCalledTimes(1)
  })

  it('keeps messages by path: set, cleared by an empty list, lost by a field given another value from outside, all gone on reset', () => {
    const d = createDraft(start())
    d.setErrors([{ path: 'vitals.weight', errors: ['Too heavy'] }, { path: 'plan', errors: ['Too long'] }])
    expect(d.errors('vitals.weight')).toEqual(['Too heavy'])
    // Typing keeps the message until the next check, as the library's form without rules did.
    d.set('vitals.weight', 80)
    expect(d.errors('vitals.weight')).toEqual(['Too heavy'])
    d.setMany({ vitals: { weight: 75, height: null }, plan: 'Rest' })
    expect(d.errors('vitals.weight')).toBeUndefined()
    expect(d.errors('plan')).toEqual(['Too long'])
    d.setErrors([{ path: 'plan', errors: [] }])
    expect(d.errors('plan')).toBeUndefined()
    d.setErrors([{ path: 'plan', errors: ['Again'] }])
    d.reset(start())
    expect(d.errors('plan')).toBeUndefined()
  })

  it('keeps a row’s key and its messages with it as a row before it is removed', () => {
    const d = createDraft(start())
    const [first, second] = d.rows('diagnoses')
    d.setErrors([{ path: 'diagnoses.0.code', errors: ['Unknown code'] }, { path: 'diagnoses.1.text', errors: ['Too long'] }])
    d.remove('diagnoses', 0)
    expect(d.rows('diagnoses')).toEqual([second])
    expect(d.get('diagnoses')).toEqual([{ code: '', text: 'Headache' }])
    expect(d.errors('diagnoses.0.text')).toEqual(['Too long'])
    expect(d.errors('diagnoses.0.code')).toBeUndefined()
    expect(d.errors('diagnoses.1.text')).toBeUndefined()
    d.add('diagnoses', { code: '', text: '' })
    const keys = d.rows('diagnoses')
    expect(keys).toHaveLength(2)
    expect(keys[0]).toBe(second)
    expect(keys).not.toContain(first)
  })

  it('gives a list replaced from outside new rows, and the same keys while it is not', () => {
    const d = createDraft(start())
    const keys = d.rows('diagnoses')
    d.set('plan', 'Walk')
    expect(d.rows('diagnoses')).toBe(keys)
    d.setMany({ diagnoses: [{ code: 'J06', text: '' }] })
    expect(d.rows('diagnoses')).toHaveLength(1)
    expect(d.rows('diagnoses')[0]).not.toBe(keys[0])
  })
})
