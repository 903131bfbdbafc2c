// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderScreen, user } from '../../test/render'
import { CriticalAlerts } from './CriticalAlerts'

// The banner's own code cannot be fetched (the network dropped, or the server was updated and
// the old file is gone).
vi.mock('./CriticalAlertsBanner', () => {
  throw new Error('Failed to fetch dynamically imported module')
})

afterEach(cleanup)

describe('CriticalAlerts', () => {
  it('still says how many critical results wait when the banner cannot be loaded', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    await renderScreen(<CriticalAlerts />, { me: user(['acknowledge critical results']), api: { 'GET /results/alerts': { data: [{ id: 1 }, { id: 2 }] } } })
    const banner = await screen.findByTestId('critical-banner')
    expect(banner.getAttribute('role')).toBe('alert')
    expect(banner.textContent).toContain('2 critical results')
  })

  it('shows nothing, and asks nothing, to one who may not acknowledge critical results', async () => {
    const view = await renderScreen(<CriticalAlerts />, { me: user(['view patient']), api: {} })
    expect(screen.queryByTestId('critical-banner')).toBeNull()
    expect(view.unanswered).toEqual([])
  })
})
