// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import dayjs from 'dayjs'
import { afterEach, describe, expect, it } from 'vitest'
import type { Schema } from '../../lib/schema'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import { PatientRelease } from './PatientRelease'

afterEach(cleanup)

type Status = Schema<'ReleaseStatus'>

const status = (id: number, title: string, more: Partial<Status>): Status => ({
  kind: 'result',
  id,
  title,
  date: '2026-11-28T10:00:00Z',
  document_kind: '',
  visible: false,
  why: 'waiting',
  decision: null,
  hold_due: false,
  sensitive: '',
  abnormal: false,
  prints_results: false,
  withdrawn: false,
  can_release: true,
  can_hold: true,
  version: 0,
  openings: { count: 0, latest: [] },
  ...more,
})

const held = (kind: 'discuss' | 'withhold', reviewBy: string) => ({
  decision: 'held' as const,
  hold_kind: kind,
  category: 'harm_patient',
  review_by: reviewBy,
  reason: 'Risk to discuss with the family',
  decided_at: '2026-10-01T10:00:00Z',
  decided_by_name: 'Dr Lan',
  version: 1,
})

const open = () =>
  renderScreen(<PatientRelease patientId={5} />, {
    me: user(['review results', 'issue documents', 'write prescription', 'view patient']),
    api: {
      'GET /patients/5/release': {
        data: [
          status(1, 'HIV antigen/antibody test', { why: 'in_person', sensitive: 'sexual_health' }),
          status(2, 'Basic metabolic panel', { visible: true, why: 'by_rule', can_release: false, abnormal: true }),
          status(3, 'Thyroid panel', { why: 'withheld', decision: held('withhold', '2026-10-31'), version: 1, hold_due: true }),
          status(4, 'Lipid panel', { why: 'no_result', can_release: false, withdrawn: true, openings: { count: 1, latest: ['2026-11-20T10:00:00Z'] } }),
          status(5, 'Visit summary', { kind: 'document', document_kind: 'visit_summary', why: 'waiting', prints_results: true }),
        ],
      },
      'POST /release/results/1': status(1, 'HIV antigen/antibody test', { visible: true, why: 'by_doctor' }),
      'POST /release/results/2': status(2, 'Basic metabolic panel', { why: 'held' }),
      'POST /release/documents/5': status(5, 'Visit summary', { visible: true, why: 'by_doctor' }),
    },
  })

const item = (title: string) => screen.findByRole('listitem', { name: title }, { timeout: 5000 })

describe('PatientRelease (the clinician review of 2026-11-29)', { timeout: 60_000 }, () => {
  it('says a sensitive result is given in person and asks before releasing it', async () => {
    const view = await open()
    const hiv = await item('HIV antigen/antibody test')
    expect(hiv.textContent).toContain('Usually given in person')
    expect(hiv.textContent).toContain('Given in person: release it by hand')
    fireEvent.click(within(hiv).getByRole('button', { name: 'Release HIV antigen/antibody test to the patient' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Release HIV antigen/antibody test to the patient?' }, { timeout: 5000 })
    expect(dialog.textContent).toContain('A result usually given in person')
    expect(view.sent).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Release' }))
    await waitFor(() => expect(view.sent).toEqual([{ method: 'POST', path: '/release/results/1', body: { action: 'release', version: 0 } }]), { timeout: 5000 })
  })

  it('warns that a document prints results before releasing it', async () => {
    await open()
    const summary = await item('Visit summary')
    fireEvent.click(within(summary).getByRole('button', { name: 'Release Visit summary to the patient' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Release Visit summary to the patient?' }, { timeout: 5000 })
    expect(dialog.textContent).toContain('This document prints results: check that the patient may see each of them.')
  })

  it('shows a withheld item, its hold due for review, and a tombstone the patient sees', async () => {
    await open()
    const thyroid = await item('Thyroid panel')
    expect(thyroid.textContent).toContain('Not visible: withheld')
    expect(thyroid.textContent).toContain('Hold due for review')
    expect(thyroid.textContent).toContain('Withheld by Dr Lan')
    expect(thyroid.textContent).toContain('Risk of harm to the patient')
    expect((await item('Lipid panel')).textContent).toContain('they now see only that the clinic withdrew it')
  })

  it('holds with a kind, a category, a reason and a review-by day 30 days on', async () => {
    const view = await open()
    const panel = await item('Basic metabolic panel')
    fireEvent.click(within(panel).getByRole('button', { name: 'Hold Basic metabolic panel from the patient' }))
    const dialog = await screen.findByRole('dialog', {}, { timeout: 5000 })
    expect(dialog.textContent).toContain('The patient reads only “Your doctor will discuss this with you.”')
    expect(dialog.textContent).toContain('The patient sees nothing, not even that it exists.')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Hold' }))
    await within(dialog).findByText('Choose what the patient sees.', {}, { timeout: 5000 })
    expect(view.sent).toEqual([])
    fireEvent.click(within(dialog).getByRole('radio', { name: /Discuss first/ }))
    fireEvent.change(within(dialog).getByRole('combobox', { name: 'Reason' }), { target: { value: 'in_person' } })
    expect(within(dialog).getByRole<HTMLOptionElement>('option', { name: 'To discuss in person' }).selected).toBe(true)
    fireEvent.input(within(dialog).getByLabelText('In your words'), { target: { value: 'Potassium at the follow-up' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Hold' }))
    await waitFor(
      () =>
        expect(view.sent).toEqual([
          {
            method: 'POST',
            path: '/release/results/2',
            body: { action: 'hold', version: 0, hold_kind: 'discuss', category: 'in_person', reason: 'Potassium at the follow-up', review_by: dayjs().add(30, 'day').format('YYYY-MM-DD') },
          },
        ]),
      { timeout: 5000 },
    )
  })

  it('passes axe, the card and the hold dialog with its messages, and the dialog starts on its first choice', async () => {
    const view = await open()
    const panel = await item('Basic metabolic panel')
    expect(await axeViolations(view.container)).toEqual([])
    fireEvent.click(within(panel).getByRole('button', { name: 'Hold Basic metabolic panel from the patient' }))
    const dialog = await screen.findByRole('dialog', { name: 'Hold Basic metabolic panel' }, { timeout: 5000 })
    expect(document.activeElement).toBe(within(dialog).getByRole('radio', { name: /Discuss first/ }))
    fireEvent.input(within(dialog).getByLabelText('In your words'), { target: { value: ' ' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Hold' }))
    await within(dialog).findByText('Say in a few words why.', {}, { timeout: 5000 })
    expect(within(dialog).getByText('Choose the kind of reason.')).toBeTruthy()
    expect(await axeViolations(dialog)).toEqual([])
  })
})
