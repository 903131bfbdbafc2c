// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { CriticalAlert } from './api/types'
import CriticalAlertsBanner from './CriticalAlertsBanner'
import { MisfiledCard } from './MisfiledCard'

afterEach(cleanup)

const item = {
  result_id: 41,
  order_id: 7,
  test: 'CREA',
  test_label: 'Creatinine',
  result: {
    id: 41,
    analyte: 'CREA',
    label: 'Creatinine',
    type: 'numeric',
    value: '88',
    unit: 'umol/L',
    entered: '88',
    entered_unit: 'umol/L',
    comparator: '',
    observed_at: '2026-11-29T07:30:00Z',
  },
  reason: "label swapped with the next patient's tube",
  retracted_at: '2026-11-29T08:00:00Z',
  retracted_by: 'Nurse Hoa',
  patient: { id: 4, mrn: '2026-000004', first_name: 'An', last_name: 'Nguyen', phone: '' },
  critical: false,
  version: 3,
}

const page = (data: unknown[], total = data.length) => ({ data, meta: { total, page: 1, per_page: 15 } })

const lan = { id: 9, mrn: '2026-000009', first_name: 'Lan', last_name: 'Tran', birth_date: '1990-05-06' }
const lanOrder = { id: 31, test: 'CREA', test_label: 'Creatinine', status: 'ordered', ordered_at: '2026-11-29T07:00:00Z', version: 5, results: [] }

const open = async () => {
  fireEvent.click(await screen.findByTestId('misfiled-resolve-41'))
  return screen.findByTestId('misfiled-dialog')
}

// C3 of the laboratory clinician's review (2026-11-29): a result recorded against the wrong
// patient waits on the results desk's list until it is resolved one of three ways.
describe('MisfiledCard', () => {
  it('says how many wait, and pages at the list sizes', async () => {
    await renderScreen(<MisfiledCard />, { me: user(['record results']), api: { 'GET /results/misfiled': page([item], 16) } })
    const card = await screen.findByTestId('misfiled')
    expect(card.textContent).toContain('16 results recorded against the wrong patient')
    expect(card.textContent).toContain('Creatinine: 88')
    expect(card.textContent).toContain('An Nguyen')
    expect(within(card).getByRole('listitem', { name: '2' })).toBeTruthy()
  })

  it('refiles the value on the right patient’s order of the same test, naming the order’s version read', async () => {
    const { sent } = await renderScreen(<MisfiledCard />, {
      me: user(['record results']),
      api: {
        'GET /results/misfiled': page([item]),
        'GET /patients': { data: [lan] },
        'GET /patients/9': lan,
        'GET /lab-results/41/misfiled/orders': ({ params }: { params: Record<string, unknown> }) => ({ data: params.patient_id === 9 ? [lanOrder] : [] }),
        'POST /lab-results/41/misfiled/resolve': { refiled_result_id: 77 },
      },
    })
    const dialog = await open()
    // The outcomes are a radio group of named choices: reached and chosen from the keyboard.
    const refiled = within(dialog).getByRole('radio', { name: /Recorded on the right patient's order/ })
    fireEvent.click(refiled)
    const patient = await within(dialog).findByRole('combobox', { name: 'Patient the sample came from' })
    fireEvent.input(patient, { target: { value: 'Lan' } })
    fireEvent.click(await screen.findByText('Lan Tran', {}, { timeout: 3000 }))
    fireEvent.click(await within(dialog).findByRole('radio', { name: /No\. 31 · Creatinine/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Mark resolved' }))
    await waitFor(() =>
      expect(sent).toContainEqual({
        method: 'POST',
        path: '/lab-results/41/misfiled/resolve',
        body: { version: 3, outcome: 'refiled', order_id: 31, order_version: 5, note: '' },
      }),
    )
  })

  it('says so when the right patient has no order of the test waiting', async () => {
    await renderScreen(<MisfiledCard />, {
      me: user(['record results']),
      api: { 'GET /results/misfiled': page([item]), 'GET /patients': { data: [lan] }, 'GET /patients/9': lan, 'GET /lab-results/41/misfiled/orders': { data: [] } },
    })
    const dialog = await open()
    fireEvent.click(within(dialog).getByRole('radio', { name: /Recorded on the right patient's order/ }))
    fireEvent.input(await within(dialog).findByRole('combobox', { name: 'Patient the sample came from' }), { target: { value: 'Lan' } })
    fireEvent.click(await screen.findByText('Lan Tran', {}, { timeout: 3000 }))
    expect((await within(dialog).findByTestId('misfiled-no-order')).textContent).toContain('no order of Creatinine')
  })

  it('asks why when the owner cannot be identified, and sends nothing without it', async () => {
    const { sent } = await renderScreen(<MisfiledCard />, {
      me: user(['record results']),
      api: { 'GET /results/misfiled': page([item]), 'POST /lab-results/41/misfiled/resolve': { refiled_result_id: null } },
    })
    const dialog = await open()
    fireEvent.click(within(dialog).getByRole('radio', { name: /The owner cannot be identified/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Mark resolved' }))
    await within(dialog).findByLabelText('Why the owner cannot be identified')
    expect(await within(dialog).findByText('Describe it in at least 5 characters.', {}, { timeout: 3000 })).toBeTruthy()
    expect(sent).toEqual([])
    fireEvent.input(within(dialog).getByLabelText('Why the owner cannot be identified'), { target: { value: 'both tubes unlabelled' } })
    fireEvent.click(screen.getByRole('button', { name: 'Mark resolved' }))
    await waitFor(() =>
      expect(sent).toContainEqual({ method: 'POST', path: '/lab-results/41/misfiled/resolve', body: { version: 3, outcome: 'unidentified', note: 'both tubes unlabelled' } }),
    )
  })

  it('asks for a new sample without a note', async () => {
    const { sent } = await renderScreen(<MisfiledCard />, {
      me: user(['record results']),
      api: { 'GET /results/misfiled': page([item]), 'POST /lab-results/41/misfiled/resolve': { refiled_result_id: null } },
    })
    const dialog = await open()
    fireEvent.click(within(dialog).getByRole('radio', { name: /A new sample is needed/ }))
    fireEvent.click(screen.getByRole('button', { name: 'Mark resolved' }))
    await waitFor(() => expect(sent).toContainEqual({ method: 'POST', path: '/lab-results/41/misfiled/resolve', body: { version: 3, outcome: 'recollect', note: '' } }))
  })

  // C2: a critical value is marked, and said to be judged for the patient it was wrongly recorded against.
  it('marks a critical value, judged for the wrong patient', async () => {
    const potassium = {
      ...item,
      result_id: 42,
      test_label: 'Electrolytes',
      critical: true,
      result: { ...item.result, id: 42, analyte: 'K', label: 'Potassium', value: '7.2', entered: '7.2', unit: 'mmol/L', flag: 'HH' },
    }
    await renderScreen(<MisfiledCard />, { me: user(['record results']), api: { 'GET /results/misfiled': page([potassium, item]) } })
    const tag = await screen.findByTestId('misfiled-critical-42')
    expect(tag.textContent).toBe('Critical')
    expect(tag.closest('tr')!.textContent).toContain('Judged critical for the patient it was recorded against')
    expect(screen.queryByTestId('misfiled-critical-41')).toBeNull()
  })

  it('shows nothing when none waits, and no resolving to one who only reads', async () => {
    await renderScreen(<MisfiledCard />, { me: user(['review results']), api: { 'GET /results/misfiled': page([item]) } })
    await screen.findByTestId('misfiled')
    expect(screen.queryByTestId('misfiled-resolve-41')).toBeNull()
    cleanup()
    await renderScreen(<MisfiledCard />, { me: user(['record results']), api: { 'GET /results/misfiled': page([]) } })
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByTestId('misfiled')).toBeNull()
  })
})

// C2: an unresolved critical misfiled value reaches the alert banner of its own, leading to the
// list; nothing there acknowledges it.
describe('MisfiledBanner', () => {
  it('lists a critical value whose owner is not found, with the way to the list and no acknowledgement', async () => {
    const a = {
      id: 5,
      order_id: 7,
      misfiled: true,
      patient: { id: 4, first_name: 'An', last_name: 'Nguyen', phone: '' },
      result: { label: 'Potassium', value: '7.2', unit: 'mmol/L', flag: 'HH', type: 'numeric', range: { source: 'none' } },
      raised_at: '2026-11-29T08:00:00Z',
      escalated_at: '2026-11-29T08:30:00Z',
      escalated_lead_at: null,
      not_reached_at: null,
      emails: [],
    } as unknown as CriticalAlert
    await renderScreen(<CriticalAlertsBanner alerts={[a]} />, { me: user(['acknowledge critical results', 'record results']), api: {} })
    const banner = await screen.findByTestId('misfiled-banner')
    expect(banner.textContent).toContain('Potassium: 7.2')
    expect(banner.textContent).toContain('recorded against An Nguyen by mistake')
    expect(within(banner).getByRole('link', { name: 'Open the misfiled list' }).getAttribute('href')).toBe('/results/overdue')
    expect(screen.queryByTestId('critical-banner')).toBeNull()
    expect(screen.queryByTestId('critical-open')).toBeNull()
  })
})
