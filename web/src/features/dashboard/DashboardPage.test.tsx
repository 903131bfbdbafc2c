// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { ResponseBody } from '../../lib/schema'
import { renderScreen, user } from '../../test/render'
import type { PatientFigures } from './api/types'
import DashboardPage from './DashboardPage'

afterEach(cleanup)

const today: ResponseBody<'/api/reports/today', 'get'> = { collected: 123450, currency: 'PHP', day: '2026-11-26', minor_units: 2, payments: 3 }
const patients: PatientFigures = {
  total: 1234,
  this_month: 56,
  months: [{ month: '2026-11', n: 56 }],
  ages: [{ band: '18-39', by_sex: { female: 600, male: 634 } }],
}

describe('DashboardPage', () => {
  it('shows a cashier the money taken today, and asks the server for nothing else', async () => {
    const view = await renderScreen(<DashboardPage />, { me: user(['view financial reports']), api: { 'GET /reports/today': today, 'GET /bill-orders': { data: [] } } })
    const card = await screen.findByTestId('figure-collected')
    await waitFor(() => expect(card.textContent).toContain('1,234.50'))
    expect(card.textContent).toContain('3')
    await waitFor(() => expect(screen.getByTestId('figure-orders-to-charge').textContent).toContain('0'))
    expect(screen.queryByTestId('figure-today')).toBeNull()
    expect(screen.queryByTestId('figure-patients')).toBeNull()
    expect(view.unanswered).toEqual([])
  })

  it('shows the register to one who reads patients, and no money', async () => {
    const view = await renderScreen(<DashboardPage />, { me: user(['view patient']), api: { 'GET /dashboard/patients': patients } })
    const total = await screen.findByTestId('figure-patients')
    await waitFor(() => expect(total.textContent).toContain('1,234'))
    expect(screen.getByTestId('figure-registered').textContent).toContain('56')
    expect(screen.queryByTestId('figure-collected')).toBeNull()
    expect(view.unanswered).toEqual([])
  })

  it("shows the desk how many of the day's orders are not charged, opening the list", async () => {
    const order = { appointment_id: 1, problem: 'not_charged' }
    const view = await renderScreen(<DashboardPage />, { me: user(['record payment']), api: { 'GET /bill-orders': { data: [order, { ...order, appointment_id: 2 }] } } })
    const card = await screen.findByTestId('figure-orders-to-charge')
    await waitFor(() => expect(card.textContent).toContain('2'))
    expect(card.getAttribute('href')).toBe('/fees/orders-to-charge')
    expect(screen.queryByTestId('figure-collected')).toBeNull()
    expect(view.unanswered).toEqual([])
  })

  it('greets the user by name', async () => {
    await renderScreen(<DashboardPage />, { me: user([]), api: {} })
    expect(await screen.findByText(/Test user/)).toBeTruthy()
  })

  it("titles the page with one h2, its panels with h3s, and shows the month's calendar, its figures loading", async () => {
    await renderScreen(<DashboardPage />, { me: user(['view patient']), api: {} }) // the figures never come
    const headings = await screen.findAllByRole('heading')
    expect(headings.map((h) => h.tagName)).toEqual(['H2', 'H3', 'H3', 'H3'])
    expect(screen.getByRole('heading', { level: 3, name: 'Calendar' })).toBeTruthy()
    expect(screen.getByRole('grid').getAttribute('aria-labelledby')).toBeTruthy()
    expect(screen.getByRole('gridcell', { selected: true }).getAttribute('aria-current')).toBe('date')
    // While the figures load, skeletons stand in for the values and the charts.
    expect(within(screen.getByTestId('figure-patients')).getByRole('definition').querySelector('[aria-busy=true]')).toBeTruthy()
  })
})
