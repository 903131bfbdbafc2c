// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../test/axe'
import { Refusal, renderScreen, user } from '../../test/render'
import { catalogue, fever, record } from './fixtures'
import { FollowUpDialog, ReactionDialog, ReactionInErrorDialog } from './ReactionDialog'

afterEach(cleanup)

const me = user(['record immunisations'])
const REPORT_SERIOUS = 'Report a serious reaction within 24 hours.'
const dose = record(2, { occurred_on: '2026-11-02' })

describe('ReactionDialog', () => {
  it('asks what the reaction was, when and how it ended; a serious one prompts its report; sent against its dose', async () => {
    const onClose = vi.fn()
    const { sent } = await renderScreen(<ReactionDialog patientId={9} r={dose} onClose={onClose} />, {
      me,
      api: { 'GET /immunisation/catalogue': catalogue, 'POST /immunisations/2/reactions': { id: 1 } },
    })
    const dialog = screen.getByRole('dialog', { name: 'Reaction after Engerix-B (paediatric) of 2026-11-02' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Choose the reaction.')).toBeTruthy()
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Hypotonic-hyporesponsive episode' })).toBeTruthy())
    fireEvent.change(within(dialog).getByLabelText('Reaction'), { target: { value: 'hhe' } })
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Severe' }))
    // A time not written HH:MM is refused before anything is sent.
    fireEvent.input(within(dialog).getByLabelText('Time of onset (optional)'), { target: { value: '25:10' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Enter the time as HH:MM, e.g. 14:30.')).toBeTruthy()
    expect(sent).toHaveLength(0)
    fireEvent.input(within(dialog).getByLabelText('Time of onset (optional)'), { target: { value: '14:30' } })
    // A hypotonic-hyporesponsive episode is not serious by its kind alone (Nghị định 104/2016's
    // list): the nurse ticks it; a convulsion is, and choosing another kind instead unticks it.
    const serious = within(dialog).getByRole('checkbox', { name: /Serious/ }) as HTMLInputElement
    expect(serious.checked).toBe(false)
    fireEvent.change(within(dialog).getByLabelText('Reaction'), { target: { value: 'seizure' } })
    expect(serious.checked).toBe(true)
    fireEvent.change(within(dialog).getByLabelText('Reaction'), { target: { value: 'hhe' } })
    expect(serious.checked).toBe(false)
    fireEvent.click(serious)
    // Serious: the dialog says to report it within 24 hours, until the day it was reported is written.
    expect(serious.checked).toBe(true)
    expect(within(dialog).getByTestId('report-prompt').textContent).toContain('Report a serious reaction within 24 hours.')
    fireEvent.change(within(dialog).getByLabelText('Outcome'), { target: { value: 'recovering' } })
    fireEvent.input(within(dialog).getByLabelText('Reported to'), { target: { value: 'District health centre' } })
    const reportedOn = within(dialog).getByLabelText('Reported on')
    fireEvent.input(reportedOn, { target: { value: new Date().toISOString().slice(0, 10) } })
    fireEvent.blur(reportedOn)
    await waitFor(() => expect(within(dialog).queryByTestId('report-prompt')).toBeNull())
    expect(await axeViolations(dialog)).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent[0]).toMatchObject({
      path: '/immunisations/2/reactions',
      body: { reaction: 'hhe', severity: 'severe', serious: true, onset_time: '14:30', outcome: 'recovering', reported_to: 'District health centre' },
    })
    expect((sent[0]!.body as { reported_on: string }).reported_on).not.toBe('')
  })
})

describe('ReactionInErrorDialog', () => {
  it('needs a reason, sends the version read, and on a stale version (409) says so and closes', async () => {
    const onClose = vi.fn()
    const { sent } = await renderScreen(<ReactionInErrorDialog patientId={9} x={fever} onClose={onClose} />, {
      me,
      api: {
        'POST /immunisation/reactions/40/entered-in-error': () => {
          throw new Refusal(409, { error: 'This record was changed by someone else. Reload it and try again.', code: 'error.conflict' })
        },
      },
    })
    const dialog = screen.getByRole('dialog', { name: /Fever of 2026-03-03: entered in error/ })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark entered in error' }))
    expect(await within(dialog).findByText('Give the reason.')).toBeTruthy()
    expect(sent).toHaveLength(0)
    fireEvent.input(within(dialog).getByLabelText('Reason'), { target: { value: 'Recorded against the wrong child' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark entered in error' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent[0]).toMatchObject({ path: '/immunisation/reactions/40/entered-in-error', body: { reason: 'Recorded against the wrong child', version: 1 } })
    expect(await screen.findByText('This record was changed by someone else. Reload it and try again.')).toBeTruthy()
  })
})

describe('ReactionDialog: an anaphylaxis', () => {
  it('offers to list the vaccine among the allergies, ticked, and says it was listed', async () => {
    const onClose = vi.fn()
    const { sent } = await renderScreen(<ReactionDialog patientId={9} r={dose} onClose={onClose} />, {
      me,
      api: { 'GET /immunisation/catalogue': catalogue, 'POST /immunisations/2/reactions': { ...fever, reaction: 'anaphylaxis', allergy_added: true } },
    })
    const dialog = screen.getByRole('dialog', { name: 'Reaction after Engerix-B (paediatric) of 2026-11-02' })
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Anaphylaxis' })).toBeTruthy())
    expect(within(dialog).queryByRole('checkbox', { name: /allergies/ })).toBeNull()
    fireEvent.change(within(dialog).getByLabelText('Reaction'), { target: { value: 'anaphylaxis' } })
    const box = within(dialog).getByRole('checkbox', { name: "Also list Engerix-B (paediatric) among the patient's allergies (anaphylaxis, severe)" }) as HTMLInputElement
    expect(box.checked).toBe(true)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent.find((s) => s.method === 'POST')?.body).toMatchObject({ reaction: 'anaphylaxis', serious: true, add_allergy: true })
    expect(await screen.findByText('Reaction saved; Engerix-B (paediatric) is listed among the allergies.')).toBeTruthy()
  })

  it('sends no allergy for another reaction, even if it was ticked for an anaphylaxis first', async () => {
    const { sent } = await renderScreen(<ReactionDialog patientId={9} r={dose} onClose={() => {}} />, {
      me,
      api: { 'GET /immunisation/catalogue': catalogue, 'POST /immunisations/2/reactions': { ...fever } },
    })
    const dialog = screen.getByRole('dialog', { name: 'Reaction after Engerix-B (paediatric) of 2026-11-02' })
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Anaphylaxis' })).toBeTruthy())
    fireEvent.change(within(dialog).getByLabelText('Reaction'), { target: { value: 'anaphylaxis' } })
    fireEvent.change(within(dialog).getByLabelText('Reaction'), { target: { value: 'rash' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent.find((s) => s.method === 'POST')).toBeTruthy())
    expect(sent.find((s) => s.method === 'POST')?.body).toMatchObject({ reaction: 'rash', add_allergy: false })
  })
})

describe('FollowUpDialog', () => {
  it('adds the report and outcome to a saved serious reaction at its version; a report day once said is not cleared', async () => {
    const onClose = vi.fn()
    const seizure = { ...fever, id: 7, reaction: 'seizure', severity: 'severe' as const, serious: true, outcome: 'recovering' as const, reported_on: '', reported_to: '', version: 2 }
    const { sent } = await renderScreen(<FollowUpDialog patientId={9} x={seizure} onClose={onClose} />, {
      me,
      api: { 'POST /immunisation/reactions/7/follow-up': { ...seizure, version: 3 } },
    })
    const dialog = screen.getByRole('dialog', { name: /report and outcome/ })
    // Serious and not yet reported: the dialog says to report it.
    expect(within(dialog).getByText(REPORT_SERIOUS)).toBeTruthy()
    // The outcome said before cannot be emptied: no empty choice.
    expect(within(within(dialog).getByLabelText('Outcome')).queryByRole('option', { name: '' })).toBeNull()
    const on = within(dialog).getByLabelText('Reported on')
    fireEvent.input(on, { target: { value: '2026-11-03' } })
    fireEvent.blur(on)
    fireEvent.input(within(dialog).getByLabelText('Reported to'), { target: { value: ' District health centre ' } })
    fireEvent.change(within(dialog).getByLabelText('Outcome'), { target: { value: 'recovered' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/immunisation/reactions/7/follow-up', body: { reported_on: '2026-11-03', reported_to: 'District health centre', outcome: 'recovered', version: 2 } })
    expect(await axeViolations(document.body)).toEqual([])
  })

  it('keeps a report day already said: it is corrected, never emptied', async () => {
    const onClose = vi.fn()
    const reported = { ...fever, id: 8, reported_on: '2026-11-03', version: 1 }
    const { sent } = await renderScreen(<FollowUpDialog patientId={9} x={reported} onClose={onClose} />, { me, api: { 'POST /immunisation/reactions/8/follow-up': { ...reported, version: 2 } } })
    const dialog = screen.getByRole('dialog', { name: /report and outcome/ })
    const on = within(dialog).getByLabelText('Reported on')
    // No clear button on a day already said.
    expect(within(dialog).queryByRole('button', { name: /clear/i })).toBeNull()
    fireEvent.input(on, { target: { value: '' } })
    fireEvent.blur(on)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose.mock.calls.length + within(dialog).queryAllByText(/cannot be taken back/).length).toBeGreaterThan(0))
    // Either the dialog refused it, or it kept the day: never sent empty.
    for (const s of sent) expect((s.body as { reported_on: string }).reported_on).toBe('2026-11-03')
  })
})
