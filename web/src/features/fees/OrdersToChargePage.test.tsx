// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import OrdersToChargePage from './OrdersToChargePage'

afterEach(cleanup)

const row = { appointment_id: 7, starts_at: '2026-11-28T09:00:00Z', patient: { id: 9, mrn: '2026-000009', name: 'Lan Trần' }, doctor: 'Dr Lan', status: 'ordered', withdrawn: false, service_id: null }

describe('OrdersToChargePage', () => {
  it("lists the day's orders not charged and cancelled ones still charged, each opening its bill (issue 55, major 2)", async () => {
    const data = [
      { ...row, order_id: 1, test: 'CRP', label: 'C-reactive protein', line_id: null, linked: true, bill_id: 5, problem: 'not_charged' },
      { ...row, order_id: 2, test: 'HBSAG', label: 'Hepatitis B surface antigen', line_id: null, linked: false, bill_id: null, problem: 'not_charged' },
      { ...row, order_id: 3, test: 'CBC', label: 'Complete blood count', status: 'cancelled', withdrawn: true, line_id: 4, linked: true, bill_id: 5, problem: 'cancelled_charged' },
    ]
    await renderScreen(<OrdersToChargePage />, { me: user(['record payment']), api: { 'GET /bill-orders': { data } } })
    const crp = (await screen.findByText('C-reactive protein')).closest('tr')!
    expect(within(crp).getByText('Not charged')).toBeTruthy()
    expect(within(crp).getByRole('link', { name: 'Open bill' }).getAttribute('href')).toBe('/bills/5')
    const hbsag = screen.getByText('Hepatitis B surface antigen').closest('tr')!
    expect(within(hbsag).getByText('Not charged: no price-list service linked')).toBeTruthy()
    expect(within(hbsag).getByText('No bill yet')).toBeTruthy()
    expect(within(screen.getByText('Complete blood count').closest('tr')!).getByText('Cancelled, still charged')).toBeTruthy()
  })
})
