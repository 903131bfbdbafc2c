import { emptyPatient } from './api/types'
import { changedPaths, mergeMine } from './merge'

describe('conflict merge', () => {
  const loaded = { ...emptyPatient(), first_name: 'An', last_name: 'Le', phone: '1' }
  it('keeps my changes on top of their newer version', () => {
    const mine = { ...loaded, phone: '2', history: { ...loaded.history, chronic: ['asthma' as const] } }
    const theirs = { ...loaded, last_name: 'Lê', email: 'an@example.com' }
    const merged = mergeMine(loaded, mine, theirs)
    expect(merged.phone).toBe('2') // mine
    expect(merged.history.chronic).toEqual(['asthma']) // mine, nested
    expect(merged.last_name).toBe('Lê') // theirs
    expect(merged.email).toBe('an@example.com') // theirs
  })
  it('names the changed fields', () => {
    expect(changedPaths(loaded, { ...loaded, sex: 'male', emergency_contact: { ...loaded.emergency_contact, name: 'B' } })).toEqual([
      ['sex'],
      ['emergency_contact', 'name'],
    ])
  })
})
