// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { AuditEventsPage } from './api/types'
import AuditLogPage from './AuditPage'

afterEach(cleanup)

const event = (id: number, over: Partial<AuditEventsPage['data'][number]> = {}): AuditEventsPage['data'][number] => ({
  id, seq: id, hash: 'h', at: '2026-11-26T09:00:00Z', actor_id: 2, actor_name: 'nurse.lan', action: 'patient.read', entity_type: 'patient', entity_id: '9',
  patient_id: 9, patient_mrn: '2026-000009', address: '10.0.0.7', outcome: 'success', detail: '', emergency: false, credential: '', ...over,
})

/** The first page says there is a next; the page after it (asked with its cursor) has the last event. */
const pages = ({ params }: { params: Record<string, unknown> }): AuditEventsPage =>
  params.after === 'c2'
    ? { data: [event(1, { action: 'auth.login', actor_name: 'admin', outcome: 'failure', entity_type: '', entity_id: '', patient_id: 0, patient_mrn: '' })], meta: { next: '', prev: 'c1', per_page: 20, total: null, total_capped: false } }
    : { data: [event(3), event(2, { outcome: 'denied' })], meta: { next: 'c2', prev: '', per_page: 20, total: 3, total_capped: false } }

describe('AuditPage', () => {
  it('lists the events with who, what, the patient and the outcome, and counts them', async () => {
    await renderScreen(<AuditLogPage />, { me: user(['view audit log', 'view patient']), api: { 'GET /audit-events': pages } })
    const table = await screen.findByTestId('audit-table')
    await waitFor(() => expect(within(table).getAllByText('nurse.lan').length).toBe(2))
    expect(within(table).getAllByRole('link', { name: '2026-000009' }).length).toBe(2)
    expect(screen.getByTestId('audit-total').textContent).toMatch(/3/)
  })

  it('pages by the cursor the server gave, and keeps the first page\'s count', async () => {
    const view = await renderScreen(<AuditLogPage />, { me: user(['view audit log']), api: { 'GET /audit-events': pages } })
    const next = await screen.findByTestId('audit-next')
    await waitFor(() => expect((next as HTMLButtonElement).disabled).toBe(false))
    fireEvent.click(next)
    const table = screen.getByTestId('audit-table')
    await waitFor(() => expect(within(table).getByText('admin')).toBeTruthy())
    expect(screen.getByTestId('audit-total').textContent).toMatch(/3/)
    expect(view.unanswered).toEqual([])
  })

  it('marks what an API token or a backend client did, and filters on it', async () => {
    const seen: Record<string, unknown>[] = []
    const api = {
      'GET /audit-events': ({ params }: { params: Record<string, unknown> }): AuditEventsPage => {
        seen.push(params)
        return { data: [event(5, { credential: 'token:17 "Lab script"' }), event(4, { credential: 'client:emr-abc "Lab interface"' }), event(3)], meta: { next: '', prev: '', per_page: 20, total: 3, total_capped: false } }
      },
    }
    await renderScreen(<AuditLogPage />, { me: user(['view audit log']), api })
    const tags = await screen.findAllByTestId('credential')
    expect(tags.map((t) => t.textContent)).toEqual(['API token “Lab script”', 'Backend client “Lab interface”'])
    fireEvent.click(screen.getByRole('checkbox', { name: /API token, a backend client or a SMART app/i }))
    fireEvent.click(screen.getByRole('button', { name: 'Apply' }))
    await waitFor(() => expect(seen.some((p) => p.credential === 1)).toBe(true))
  })

  it.each([
    ['token:17 "Lab script"', 'API token “Lab script”'],
    ['client:emr-abc "Lab interface"', 'Backend client “Lab interface”'],
    ['app:emr-app-7f3a "Growth chart" grant 12', 'SMART app “Growth chart”'],
    ['app:emr-app-7f3a "The \\"Z\\" score" grant 3', 'SMART app “The "Z" score”'],
    ['app:emr-app-7f3a "No grant"', 'app:emr-app-7f3a "No grant"'],
  ])('names the credential %s as %s', async (credential, label) => {
    const api = {
      'GET /audit-events': (): AuditEventsPage => ({ data: [event(5, { credential })], meta: { next: '', prev: '', per_page: 20, total: 1, total_capped: false } }),
    }
    await renderScreen(<AuditLogPage />, { me: user(['view audit log']), api })
    const tag = await screen.findByTestId('credential')
    expect(tag.textContent).toBe(label)
  })

  it('names FHIR actions and records in words, never as codes', async () => {
    const api = {
      'GET /audit-events': (): AuditEventsPage => ({
        data: [
          event(7, { action: 'fhir.observation.list', entity_type: 'observation', entity_id: '' }),
          event(6, { action: 'lab_order.final', entity_type: 'lab_order', entity_id: '6' }),
          event(5, { action: 'critical_alert.acknowledge', entity_type: 'critical_alert', entity_id: '3' }),
          event(4, { action: 'settings.results', entity_type: 'settings', entity_id: 'results', patient_id: 0, patient_mrn: '' }),
        ],
        meta: { next: '', prev: '', per_page: 20, total: 4, total_capped: false },
      }),
    }
    await renderScreen(<AuditLogPage />, { me: user(['view audit log']), api })
    const table = await screen.findByTestId('audit-table')
    await waitFor(() => expect(within(table).getByText('Searched vital signs and results over the FHIR API')).toBeTruthy())
    for (const words of ['Vital signs and results', 'Lab order 6', 'Critical alert 3', 'Changed the critical-results settings', 'Settings: critical results']) {
      expect(within(table).getByText(words)).toBeTruthy()
    }
    expect(table.textContent).not.toMatch(/fhir\.|lab_order|critical_alert|Appointment/)
  })

  it('offers the FHIR actions in a group of their own', async () => {
    await renderScreen(<AuditLogPage />, { me: user(['view audit log']), api: { 'GET /audit-events': pages } })
    const box = screen.getByRole('combobox', { name: 'Action' })
    fireEvent.mouseDown(box)
    fireEvent.input(box, { target: { value: 'vital signs and results' } })
    expect(await screen.findByText('Over the FHIR API')).toBeTruthy()
    expect(screen.getByText('Searched vital signs and results over the FHIR API (fhir.observation.list)')).toBeTruthy()
    expect(screen.queryByText('In the app')).toBeNull()
  })

  it('offers the filtered list as a file', async () => {
    await renderScreen(<AuditLogPage />, { me: user(['view audit log']), api: { 'GET /audit-events': pages } })
    const link = await screen.findByTestId('audit-export')
    expect(link.getAttribute('href')).toMatch(/^\/api\/audit-events\/export\?/)
    expect(link.getAttribute('href')).toContain('sort=-at')
  })
})
