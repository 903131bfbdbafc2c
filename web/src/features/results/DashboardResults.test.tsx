// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import { DashboardResults } from './DashboardResults'

afterEach(cleanup)

const alert = (id: number, withdrawn: boolean) => ({
  id,
  order_id: 2,
  patient: { id: 4, first_name: 'An', last_name: 'Nguyen', phone: '' },
  doctor_id: 5,
  raised_at: new Date(Date.now() - 5 * 60_000).toISOString(),
  escalated_at: null,
  escalated_lead_at: null,
  open: !withdrawn,
  withdrawn_at: withdrawn ? new Date().toISOString() : null,
})

// Issue 54: a critical result withdrawn as entered in error is no longer one waiting to be
// acknowledged: the dashboard's figure counts the open ones alone.
describe('DashboardResults', () => {
  it('counts the critical results still to acknowledge, not the withdrawn ones', async () => {
    await renderScreen(<DashboardResults />, {
      me: user(['review results']),
      api: { 'GET /results/review/count': { count: 1 }, 'GET /results/alerts': { data: [alert(1, true), alert(2, false)] } },
    })
    const figure = await screen.findByTestId('figure-critical')
    await within(figure).findByText('1')
    expect(within(figure).queryByText('2')).toBeNull()
  })
  it('shows none when the only critical result was withdrawn', async () => {
    await renderScreen(<DashboardResults />, {
      me: user(['review results']),
      api: { 'GET /results/review/count': { count: 1 }, 'GET /results/alerts': { data: [alert(1, true)] } },
    })
    const figure = await screen.findByTestId('figure-critical')
    await within(figure).findByText('0')
  })
})
