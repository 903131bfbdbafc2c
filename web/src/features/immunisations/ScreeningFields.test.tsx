// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import { catalogue } from './fixtures'
import { defaultSite } from './parts'
import { ScreeningFields, unanswered } from './ScreeningFields'

afterEach(cleanup)

const mmr = catalogue.vaccines.find((v) => v.key === 'mmr')!

async function render(ageMonths: number | undefined, feverFrom = 38) {
  await renderScreen(
    <ScreeningFields vaccine={mmr} answers={unanswered()} onAnswer={() => {}} temperature="" onTemperature={() => {}} findings={[]} feverFrom={feverFrom} ageMonths={ageMonths} />,
    { me: user(['record immunisations']), api: {} },
  )
}

describe('ScreeningFields', () => {
  it('does not ask an infant whether she is pregnant, and asks from 9 years', async () => {
    await render(10)
    expect(screen.queryByRole('group', { name: 'Pregnant?' })).toBeNull()
    cleanup()
    await render(9 * 12)
    expect(screen.getByRole('group', { name: 'Pregnant?' })).toBeTruthy()
  })

  it("says the clinic's fever threshold, and offers yes or no only for the questions every dose is asked", async () => {
    await render(10, 37.5)
    const fever = screen.getByRole('group', { name: 'Fever (37.5 °C or more) or a low temperature (35.5 °C or less)?' })
    expect(fever.querySelectorAll('input[type=radio]')).toHaveLength(2)
    expect((fever.querySelector('input:checked') as HTMLInputElement | null) ?? null).toBeNull()
  })
})

describe('defaultSite', () => {
  it('puts a dose under the skin from 9 months in the upper arm, into the muscle under 12 months in the thigh', () => {
    const born = '2026-01-01'
    expect(defaultSite('SC', born, '2026-10-01')).toBe('left_arm') // measles at 9 months
    expect(defaultSite('SC', born, '2026-07-01')).toBe('left_thigh')
    expect(defaultSite('IM', born, '2026-10-01')).toBe('left_thigh')
    expect(defaultSite('IM', born, '2027-01-01')).toBe('left_arm')
    expect(defaultSite('ID', born, '2026-01-02')).toBe('left_arm')
    expect(defaultSite('PO', born, '2026-03-01')).toBe('')
  })
})
