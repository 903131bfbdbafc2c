// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { initI18n } from '../lib/i18n'
import { LineFindings, type Finding } from './MedicineSafety'

afterEach(cleanup)

const interaction = {
  line: 0, key: 'interaction:anticoagulant_nsaid:taken:3', kind: 'interaction', tier: 'high', blocking: false, requires_reason: true, severity: 'major',
  effect: 'bleeding', action: 'avoid', source: "Stockley's", other_taken_id: 3, other_source: 'elsewhere', other_medicine: 'Warfarin 5 mg tablet', other_date: '2026-11-20', overridden: false,
} as Finding

describe('LineFindings', () => {
  it('names a medicine recorded as taken: from elsewhere or over the counter, and when it was recorded', async () => {
    await initI18n('en')
    render(<LineFindings findings={[interaction, { ...interaction, key: 'taken:4:class:nsaids', kind: 'duplicate_taken', severity: undefined, class: 'NSAIDs', other_source: 'otc', other_medicine: 'Ibuprofen 200 mg' } as Finding]} />)
    const text = document.body.textContent ?? ''
    expect(text).toContain('Interaction (major) with Warfarin 5 mg tablet, taken (recorded 2026-11-20, from elsewhere): bleeding')
    expect(text).toContain('Duplicate therapy: Ibuprofen 200 mg, taken (recorded 2026-11-20, over the counter), also contains NSAIDs.')
  })
})
