// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../../test/axe'
import { renderScreen, user } from '../../../test/render'
import type { DueItem, DuePage } from '../api/due'
import DueListPage from './DueListPage'

afterEach(cleanup)

const item = (id: number, name: string, antigen: string, extra: Partial<DueItem> = {}): DueItem => ({
  patient_id: id,
  mrn: `2026-00000${id}`,
  name,
  birth_date: '2025-09-01',
  age_band: '0-1y',
  antigen,
  antigen_name: antigen === 'measles' ? 'Measles' : 'Poliomyelitis',
  dose_number: 1,
  schedule: 'who',
  outside_programme: false,
  due_on: '2026-11-20',
  overdue_on: '2026-12-20',
  status: 'due',
  last_reminded_at: null,
  contact: { phone: '+84 90 000 0001', email: '' },
  ...extra,
})

function clinic() {
  const asked: Record<string, unknown>[] = []
  const first: DuePage = {
    items: [item(1, 'An Child', 'measles'), item(1, 'An Child', 'polio', { status: 'overdue', overdue_on: '2026-11-25' }), item(2, 'Binh Child', 'measles', { contact: { phone: '', email: '' }, schedule: 'who', outside_programme: true })],
    next: '2026-11-20.2.measles',
    counts: { due: 2, overdue: 1 },
    as_of: '2026-12-01',
  }
  const second: DuePage = { items: [item(3, 'Chi Child', 'measles', { birth_date: '2022-01-01', age_band: '2-6y' })], next: null, counts: null, as_of: '2026-12-01' }
  const sent: unknown[] = []
  const api = {
    'GET /immunisation/due': ({ params }: { params: Record<string, unknown> }) => {
      asked.push(params)
      return params.after_id ? second : first
    },
    'GET /immunisation/catalogue': { antigens: [{ key: 'measles', name: 'Measles' }, { key: 'polio', name: 'Poliomyelitis' }] },
    'POST /immunisation/due/remind': ({ body }: { body: unknown }) => {
      sent.push(body)
      return { queued: 1, skipped: [{ patient_id: 2, reason: 'no_contact' }] }
    },
  }
  return { asked, sent, api }
}

const show = async (permissions = ['view patient', 'manage appointment', 'send messages']) => {
  const c = clinic()
  const view = await renderScreen(<DueListPage />, { me: user(permissions), api: c.api, route: '/appointments/immunisations-due', at: '/appointments/immunisations-due' })
  return { ...view, ...c }
}

const rows = () => within(screen.getByRole('table', { name: 'Immunisations due' })).getAllByRole('row').slice(1)

describe('DueListPage', () => {
  it('lists the children due with their dates, age and contact, and pages by key', async () => {
    const { container, asked } = await show()
    await waitFor(() => expect(rows()).toHaveLength(3))
    const first = rows()[0]!
    expect(within(first).getByRole('link', { name: 'An Child' }).getAttribute('href')).toBe('/masterfile/profile/1/2026-000001')
    expect(first.textContent).toContain('Measlesdose 1')
    expect(first.textContent).toContain('due 2026-11-20')
    expect(first.textContent).toContain('overdue from 2026-12-20')
    expect(first.textContent).toContain('15 months')
    expect(first.textContent).toContain('Never')
    expect(rows()[2]!.textContent).toContain('No contact')
    // A dose outside the clinic's national programme is said so; one within it is not.
    expect(within(rows()[2]!).getByTestId('outside-programme').textContent).toBe('Outside the national programme (service vaccine)')
    expect(within(first).queryByTestId('outside-programme')).toBeNull()
    expect(screen.getByRole('radio', { name: 'Overdue (1)' })).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(asked.at(-1)).toMatchObject({ after_id: '2026-11-20.2.measles' })
    expect(rows()[0]!.textContent).toContain('4 years')
    expect(screen.getByRole('radio', { name: 'Overdue (1)' })).toBeTruthy() // the first page's counts kept
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }))
    await waitFor(() => expect(rows()).toHaveLength(3))
  })

  it('filters by status, antigen and age band, from the first page', async () => {
    const { asked } = await show()
    await waitFor(() => expect(rows()).toHaveLength(3))
    fireEvent.click(screen.getByRole('radio', { name: 'Overdue (1)' }))
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ status: 'overdue' }))
    fireEvent.change(screen.getByLabelText('Vaccine against'), { target: { value: 'measles' } })
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ status: 'overdue', antigen: 'measles' }))
    fireEvent.change(screen.getByLabelText('Age'), { target: { value: '1-2y' } })
    await waitFor(() => expect(asked.at(-1)).toMatchObject({ status: 'overdue', antigen: 'measles', band: '1-2y' }))
    expect(asked.at(-1)?.after_id).toBeUndefined()
  })

  it('sends reminders to the children selected and says what was queued and skipped', async () => {
    const { sent } = await show()
    await waitFor(() => expect(rows()).toHaveLength(3))
    const send = screen.getByRole('button', { name: 'Send reminders' })
    expect(send.hasAttribute('disabled')).toBe(true)
    fireEvent.click(screen.getAllByRole('checkbox', { name: 'Select An Child' })[0]!)
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select Binh Child' }))
    // One child on two rows is one selection.
    expect(screen.getAllByRole('checkbox', { name: 'Select An Child' }).every((c) => (c as HTMLInputElement).checked)).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Send reminders (2 children)' }))
    await waitFor(() => expect(screen.getByTestId('remind-outcome').textContent).toContain('1 reminder queued.'))
    expect(sent).toEqual([{ patient_ids: [1, 2] }])
    expect(screen.getByTestId('remind-outcome').textContent).toContain('Binh Child: no phone or e-mail the clinic sends to')
  })

  it('selects a whole page, and offers no sending without the permission', async () => {
    await show()
    await waitFor(() => expect(rows()).toHaveLength(3))
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select every child on this page' }))
    expect(screen.getByRole('button', { name: 'Send reminders (2 children)' })).toBeTruthy()
    cleanup()
    await show(['view patient', 'record immunisations'])
    await waitFor(() => expect(rows()).toHaveLength(3))
    expect(screen.queryByRole('button', { name: /Send reminder/ })).toBeNull()
    expect((screen.getByRole('checkbox', { name: 'Select Binh Child' }) as HTMLInputElement).disabled).toBe(true)
  })
})
