// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { FeeSettings } from './api/types'
import { FeeSettingsCard } from './FeeSettingsCard'

afterEach(cleanup)

const settings = { currency: 'PHP', minor_units: 2, consultation: {}, currencies: ['PHP', 'VND'], version: 4, drawer_difference_limit: 0 } as FeeSettings

describe('FeeSettingsCard', () => {
  it("saves the clinic's drawer difference limit in minor units (blind close, M7)", async () => {
    const { sent } = await renderScreen(<FeeSettingsCard settings={settings} services={[]} />, {
      me: user(['manage fees']),
      api: { 'PUT /fees/settings': { ...settings, drawer_difference_limit: 2050, version: 5 } },
    })
    const limit = await screen.findByLabelText('Largest drawer difference a cashier closes alone (PHP)')
    expect((limit as HTMLInputElement).value).toBe('0.00')
    fireEvent.input(limit, { target: { value: '20.50' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save settings' }))
    await waitFor(() =>
      expect(sent).toContainEqual({
        method: 'PUT',
        path: '/fees/settings',
        body: { currency: 'PHP', consultation: { new: '', 'follow-up': '', 'walk-in': '' }, drawer_difference_limit: 2050, version: 4 },
      }),
    )
  })
})
