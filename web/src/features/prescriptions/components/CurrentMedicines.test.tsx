// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../../test/render'
import type { CurrentMedicine } from '../api/currentMedicines'
import { highAlert, PatientMedicines, partialDay, readPartialDay, VisitMedicines } from './CurrentMedicines'

afterEach(cleanup)

const base = {
  patient_id: 9, medicine_id: null, dose: '', frequency: '', prescriber: '', started_on: '', recorded_at: '2026-11-20T08:00:00Z', recorded_by: 'Nurse Hoa',
  confirmed_at: null, confirmed_appointment_id: null, stopped_on: '', stop_reason: '', version: 1,
  stop_category: '', stopped_appointment_id: null, route: '', indication: '', last_dose: '', adherence: '', information_source: '',
  error_reason: '', error_at: null, needs_review: false, reviewed_at: null,
} satisfies Partial<CurrentMedicine>

const warfarin: CurrentMedicine = { ...base, id: 3, medicine_id: 41, medicine: 'Warfarin 5 mg tablet', dose: '1 tablet', frequency: 'once daily', source: 'elsewhere', prescriber: 'Dr Minh, cardiology', started_on: '2019' }
const omeprazole: CurrentMedicine = { ...base, id: 4, medicine: 'Omeprazole 20 mg', source: 'otc', started_on: '2024-03' }
const here: CurrentMedicine = { ...base, id: 0, medicine_id: 7, medicine: 'Amlodipine 5 mg tablet', source: 'here', prescriber: 'Dr An', started_on: '2026-11-20', prescription_id: 12, line: 0, supply_until: '2026-12-20' }
const stopped: CurrentMedicine = { ...base, id: 5, medicine: 'Ibuprofen 200 mg', source: 'otc', stopped_on: '2026-11-25', stop_category: 'side_effect', stop_reason: 'Stomach pain', stopped_by: 'Dr An' }

/** Picks an option of the dialog's select named label. */
async function choose(dialog: HTMLElement, label: string, option: string) {
  const select = within(dialog).getByRole('combobox', { name: label }) as HTMLSelectElement
  const chosen = within(select).getByRole('option', { name: option }) as HTMLOptionElement
  fireEvent.change(select, { target: { value: chosen.value } })
  await waitFor(() => expect(select.value).toBe(chosen.value))
}

const list = { data: [here, warfarin, omeprazole, stopped] }

describe('PatientMedicines', () => {
  it('lists what is prescribed here, from elsewhere and over the counter, with start, prescriber and confirmation; stopped ones folded away', async () => {
    await renderScreen(<PatientMedicines patientId={9} />, { me: user(['view patient', 'record vitals']), api: { 'GET /patients/9/current-medicines': list } })
    await waitFor(() => expect(document.body.textContent).toContain('Warfarin 5 mg tablet'))
    const text = document.body.textContent ?? ''
    for (const want of ['Prescribed here', 'From elsewhere', 'Over the counter', 'Since 2019', 'Prescribed by Dr Minh, cardiology', 'Not yet confirmed at a visit', 'Supplied until 2026-12-20', '1 stopped', 'Not from the catalogue'])
      expect(text).toContain(want)
    // A line prescribed here cannot be corrected, only said stopped; the recorded ones both.
    expect(screen.getByRole('button', { name: 'Stop Warfarin 5 mg tablet' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Edit Warfarin 5 mg tablet' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Stop Amlodipine 5 mg tablet' })).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Edit Amlodipine 5 mg tablet' })).toBeNull()
    expect(text).not.toContain('Stomach pain')
  })

  it('tells "asked, takes no medicines" from never asked, and records the answer', async () => {
    const { sent } = await renderScreen(<PatientMedicines patientId={9} />, {
      me: user(['view patient', 'record vitals']),
      api: { 'GET /patients/9/current-medicines': { data: [], takes_none: null }, 'POST /patients/9/current-medicines/none': { asked_at: '2026-11-29T08:00:00Z', asked_by: 'Nurse Hoa' } },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Asked: takes no medicines' }))
    await waitFor(() => expect(sent.length).toBe(1))
    expect(sent[0].path).toBe('/patients/9/current-medicines/none')
    cleanup()
    await renderScreen(<PatientMedicines patientId={9} />, {
      me: user(['view patient', 'record vitals']),
      api: { 'GET /patients/9/current-medicines': { data: [], takes_none: { asked_at: '2026-11-29T08:00:00Z', asked_by: 'Nurse Hoa' } } },
    })
    expect((await screen.findByTestId('takes-none')).textContent).toContain('Takes no medicines (asked 2026-11-29 by Nurse Hoa)')
  })

  it('offers no changes to one who neither records vitals nor prescribes', async () => {
    await renderScreen(<PatientMedicines patientId={9} />, { me: user(['view patient', 'write diagnosis']), api: { 'GET /patients/9/current-medicines': list } })
    await waitFor(() => expect(document.body.textContent).toContain('Warfarin 5 mg tablet'))
    expect(screen.queryByRole('button', { name: /record a medicine/i })).toBeNull()
    expect(screen.queryByRole('button', { name: /^stop /i })).toBeNull()
  })

  it('records a typed medicine from elsewhere, says the check matches it by words only, and shows the allergy it meets', async () => {
    const { sent } = await renderScreen(<PatientMedicines patientId={9} />, {
      me: user(['view patient', 'record vitals']),
      api: {
        'GET /patients/9/current-medicines': { data: [] },
        'POST /patients/9/current-medicines': ({ body }: { body: Record<string, unknown> }) => ({
          ...base, id: 8, medicine: body.medicine, source: body.source,
          findings: [{ line: 0, key: 'allergy:penicillin:class:penicillins', kind: 'allergy', tier: 'hard', blocking: false, requires_reason: true, allergy: 'Penicillin', class: 'Penicillins', overridden: false }],
        }),
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: /record a medicine/i }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.input(within(dialog).getByLabelText('Medicine'), { target: { value: 'Amoxicillin 500 mg' } })
    await waitFor(() => expect(within(dialog).getByText(/matches it by its words only/)).toBeTruthy())
    fireEvent.input(within(dialog).getByLabelText('Prescribed by'), { target: { value: 'District hospital' } })
    fireEvent.input(within(dialog).getByLabelText('Taking it since'), { target: { value: '11/2026' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent.length).toBe(1))
    expect(sent[0].body).toMatchObject({ medicine: 'Amoxicillin 500 mg', medicine_id: null, source: 'elsewhere', prescriber: 'District hospital', started_on: '2026-11', version: 0 })
    await waitFor(() => expect(document.body.textContent).toContain('the safety check has something to say about Amoxicillin 500 mg'))
    expect(document.body.textContent).toContain('Penicillins')
    // she records what the patient takes: no reason to give, the doctor to tell
    expect(document.body.textContent).toContain('Recorded as taken; tell the doctor.')
    expect(document.body.textContent).not.toContain('give a reason to prescribe')
  })

  it('says what the check read each typed medicine as, and in red when it read nothing', async () => {
    const read = { ...omeprazole, read_as: [{ name: 'Omeprazole', atc: 'A02BC01' }] }
    const unread = { ...omeprazole, id: 6, medicine: 'Grandma drops', read_as: [] }
    await renderScreen(<PatientMedicines patientId={9} />, { me: user(['view patient', 'record vitals']), api: { 'GET /patients/9/current-medicines': { data: [read, unread] } } })
    await waitFor(() => expect(document.body.textContent).toContain('Read as: Omeprazole A02BC01'))
    expect(screen.getByText('Not recognised').getAttribute('title')).toContain('the safety check cannot see this medicine')
    expect(document.body.textContent).not.toContain('Not from the catalogue')
  })

  it('reviews the list against itself: an interaction between two listed medicines is shown for a doctor to resolve', async () => {
    const naproxen: CurrentMedicine = {
      ...base, id: 7, medicine: 'Naproxen 250 mg', source: 'otc',
      findings: [{ line: 0, key: 'interaction:anticoagulant_nsaid:line:1', kind: 'interaction', tier: 'high', blocking: false, requires_reason: true, severity: 'major', effect: 'bleeding', action: 'avoid', other_medicine: 'Warfarin 5 mg tablet', other_taken_id: 3, overridden: false }],
    }
    await renderScreen(<VisitMedicines patientId={9} appointmentId={30} closed={false} />, { me: user(['view patient', 'record vitals']), api: { 'GET /patients/9/current-medicines': { data: [naproxen, warfarin] } } })
    const review = await screen.findByTestId('list-review')
    expect(review.textContent).toContain('List review: 1 to resolve')
    expect(review.textContent).toContain('Naproxen 250 mg')
    expect(within(review).getByTestId('rx-safety').textContent).toContain('Naproxen 250 mg')
    expect(within(review).getByTestId('rx-safety').textContent).toContain('Warfarin 5 mg tablet')
  })

  describe('a finding kept knowingly', () => {
    const interaction = { line: 0, kind: 'interaction', tier: 'high', blocking: false, requires_reason: true, severity: 'major', effect: 'bleeding', action: 'avoid', overridden: false } as const
    const naproxen: CurrentMedicine = {
      ...base, id: 7, medicine: 'Naproxen 250 mg', source: 'otc',
      findings: [{ ...interaction, key: 'interaction:anticoagulant_nsaid:line:1', other_medicine: 'Warfarin 5 mg tablet', other_taken_id: 3, pair: { this: 'taken-7', other: 'taken-3', finding: 'interaction:anticoagulant_nsaid' } }],
    }
    const aspirin: CurrentMedicine = {
      ...base, id: 8, medicine: 'Aspirin 81 mg', source: 'elsewhere',
      findings: [{
        ...interaction, key: 'interaction:anticoagulant_antiplatelet:line:1', other_medicine: 'Warfarin 5 mg tablet', other_taken_id: 3,
        pair: { this: 'taken-8', other: 'taken-3', finding: 'interaction:anticoagulant_antiplatelet' },
        kept: { by: 'Dr An', at: '2026-11-28T09:00:00Z', reason: 'Stent in March, agreed with cardiology', prescribed: false },
      }],
    }
    const data = { data: [naproxen, aspirin, warfarin] }

    it('is shown struck through with who kept it, when and why, and not counted', async () => {
      await renderScreen(<PatientMedicines patientId={9} />, { me: user(['view patient', 'write prescription']), api: { 'GET /patients/9/current-medicines': data } })
      const review = await screen.findByTestId('list-review')
      expect(review.textContent).toContain('List review: 1 to resolve')
      const kept = within(review).getByTestId('kept-pair')
      expect(kept.textContent).toContain('Aspirin 81 mg')
      expect(kept.textContent).toContain('Kept knowingly by Dr An on 2026-11-28: Stent in March, agreed with cardiology')
      expect(kept.querySelector('del')).toBeTruthy()
      // nothing left to resolve: no count, the kept pair still in view
      cleanup()
      await renderScreen(<PatientMedicines patientId={9} />, { me: user(['view patient', 'write prescription']), api: { 'GET /patients/9/current-medicines': { data: [aspirin, warfarin] } } })
      const only = await screen.findByTestId('list-review')
      expect(only.textContent).not.toContain('to resolve')
      expect(only.textContent).toContain('Kept knowingly by Dr An')
    })

    it('shows the reason given when it was prescribed here', async () => {
      const prescribed = { ...aspirin, findings: [{ ...aspirin.findings![0], kept: { by: 'Dr Minh', at: '2026-11-20T09:00:00Z', reason: 'Stent in March', prescribed: true } }] }
      await renderScreen(<VisitMedicines patientId={9} appointmentId={30} closed={false} />, { me: user(['view patient', 'write prescription']), api: { 'GET /patients/9/current-medicines': { data: [prescribed, warfarin] } } })
      expect((await screen.findByTestId('kept-pair')).textContent).toContain('Reason given when prescribed by Dr Minh on 2026-11-20: Stent in March')
    })

    it('can be reviewed again by a prescriber', async () => {
      const { sent } = await renderScreen(<PatientMedicines patientId={9} />, {
        me: user(['view patient', 'write prescription']),
        api: { 'GET /patients/9/current-medicines': data, 'POST /patients/9/current-medicines/kept-pairs/review-again': aspirin.findings![0] },
      })
      fireEvent.click(await screen.findByRole('button', { name: 'Review Aspirin 81 mg with Warfarin 5 mg tablet again' }))
      await waitFor(() => expect(sent.length).toBe(1))
      expect(sent[0].body).toEqual({ this: 'taken-8', other: 'taken-3', finding: 'interaction:anticoagulant_antiplatelet' })
    })

    it('is kept by a prescriber with a reason of at least 5 characters', async () => {
      const { sent } = await renderScreen(<PatientMedicines patientId={9} />, {
        me: user(['view patient', 'write prescription']),
        api: { 'GET /patients/9/current-medicines': data, 'POST /patients/9/current-medicines/kept-pairs': naproxen.findings![0] },
      })
      fireEvent.click(await screen.findByRole('button', { name: 'Keep Naproxen 250 mg with Warfarin 5 mg tablet knowingly' }))
      const dialog = await screen.findByRole('dialog')
      fireEvent.input(within(dialog).getByLabelText('Why both are kept'), { target: { value: 'ok' } })
      fireEvent.click(within(dialog).getByRole('button', { name: 'Keep both' }))
      await waitFor(() => expect(within(dialog).getByText('Give the reason in at least 5 characters.')).toBeTruthy())
      expect(sent.length).toBe(0)
      fireEvent.input(within(dialog).getByLabelText('Why both are kept'), { target: { value: 'Three days only, INR on Friday' } })
      fireEvent.click(within(dialog).getByRole('button', { name: 'Keep both' }))
      await waitFor(() => expect(sent.length).toBe(1))
      expect(sent[0].body).toEqual({ this: 'taken-7', other: 'taken-3', finding: 'interaction:anticoagulant_nsaid', reason: 'Three days only, INR on Friday' })
    })

    it('is seen by a nurse, who cannot keep one', async () => {
      await renderScreen(<VisitMedicines patientId={9} appointmentId={30} closed={false} />, { me: user(['view patient', 'record vitals']), api: { 'GET /patients/9/current-medicines': data } })
      const review = await screen.findByTestId('list-review')
      expect(review.textContent).toContain('List review: 1 to resolve')
      expect(review.textContent).toContain('Kept knowingly by Dr An')
      expect(within(review).queryByRole('button', { name: /keep|again/i })).toBeNull()
    })
  })

  it('stops one with a reason, today unless said', async () => {
    const { sent } = await renderScreen(<PatientMedicines patientId={9} />, {
      me: user(['view patient', 'write prescription']),
      api: { 'GET /patients/9/current-medicines': list, 'POST /current-medicines/3/stop': { ...warfarin, stopped_on: '2026-11-29' } },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Stop Warfarin 5 mg tablet' }))
    const dialog = await screen.findByRole('dialog')
    // a category is required, and "other" asks for words
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }))
    await waitFor(() => expect(within(dialog).getByText('Choose why it was stopped.')).toBeTruthy())
    await choose(dialog, 'Why was it stopped?', 'Other')
    await within(dialog).findByLabelText('Details')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }))
    await waitFor(() => expect(within(dialog).getByText('Give a reason.')).toBeTruthy())
    expect(sent).toHaveLength(0)
    await choose(dialog, 'Why was it stopped?', 'Replaced by another medicine')
    fireEvent.input(await within(dialog).findByLabelText('Details (optional)'), { target: { value: 'Changed to apixaban' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }))
    await waitFor(() => expect(sent.length).toBe(1))
    expect(sent[0]).toMatchObject({ path: '/current-medicines/3/stop', body: { category: 'replaced', reason: 'Changed to apixaban', appointment_id: null, version: 1 } })
    expect(sent[0].body).toHaveProperty('stopped_on', expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/))
  })
})

describe('VisitMedicines: a line prescribed here', () => {
  it('is asked about too: stopped by the patient, its prescription line is stopped, not the prescription', async () => {
    const { sent } = await renderScreen(<VisitMedicines patientId={9} appointmentId={30} closed={false} />, {
      me: user(['view patient', 'record vitals']),
      api: { 'GET /patients/9/current-medicines': list, 'POST /prescriptions/12/lines/0/stop': { ...here, stopped_on: '2026-11-29', stop_reason: 'Ankle swelling' } },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Amlodipine 5 mg tablet: stopped' }))
    const dialog = await screen.findByRole('dialog')
    await choose(dialog, 'Why was it stopped?', 'Side effect or reaction')
    // a side effect suggests recording an allergy or intolerance; nothing is recorded by itself
    expect((await within(dialog).findByTestId('allergy-hint')).textContent).toContain('allergy or intolerance')
    fireEvent.input(within(dialog).getByLabelText('Details (optional)'), { target: { value: 'Ankle swelling' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop' }))
    await waitFor(() => expect(sent.length).toBe(1))
    // stopped at this visit: printed on its summary
    expect(sent[0]).toMatchObject({ path: '/prescriptions/12/lines/0/stop', body: { category: 'side_effect', reason: 'Ankle swelling', appointment_id: 30 } })
  })
})

describe('VisitMedicines', () => {
  it('asks "still taking?" for each recorded medicine: confirm all, one by one, at this visit', async () => {
    const { sent } = await renderScreen(<VisitMedicines patientId={9} appointmentId={30} closed={false} />, {
      me: user(['view patient', 'record vitals']),
      api: {
        'GET /patients/9/current-medicines': list,
        'POST /current-medicines/3/confirm': { ...warfarin, confirmed_appointment_id: 30 },
        'POST /current-medicines/4/confirm': { ...omeprazole, confirmed_appointment_id: 30 },
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: /confirm all 2/i }))
    await waitFor(() => expect(sent.length).toBe(2))
    expect(sent.map((s) => s.path)).toEqual(['/current-medicines/3/confirm', '/current-medicines/4/confirm'])
    expect(sent[0].body).toEqual({ appointment_id: 30, version: 1 })
  })

  it('leaves a high-alert medicine out of "confirm all": an anticoagulant is confirmed on its own', async () => {
    const warfarinRead = { ...warfarin, read_as: [{ name: 'Warfarin', atc: 'B01AA03' }] }
    const lisinopril: CurrentMedicine = { ...base, id: 6, medicine: 'Lisinopril 10 mg', source: 'elsewhere', read_as: [{ name: 'Lisinopril', atc: 'C09AA03' }] }
    const { sent } = await renderScreen(<VisitMedicines patientId={9} appointmentId={30} closed={false} />, {
      me: user(['view patient', 'record vitals']),
      api: {
        'GET /patients/9/current-medicines': { data: [warfarinRead, omeprazole, lisinopril] },
        'POST /current-medicines/4/confirm': { ...omeprazole, confirmed_appointment_id: 30 },
        'POST /current-medicines/6/confirm': { ...lisinopril, confirmed_appointment_id: 30 },
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: /confirm all 2/i }))
    await waitFor(() => expect(sent.length).toBe(2))
    expect(sent.map((s) => s.path)).toEqual(['/current-medicines/4/confirm', '/current-medicines/6/confirm'])
    expect(screen.getByRole('button', { name: 'Warfarin 5 mg tablet: still taking' })).toBeTruthy()
  })

  it('flags a recorded medicine nobody has confirmed for over six months', async () => {
    await renderScreen(<PatientMedicines patientId={9} />, {
      me: user(['view patient', 'record vitals']),
      api: { 'GET /patients/9/current-medicines': { data: [{ ...omeprazole, recorded_at: '2025-01-10T08:00:00Z' }, { ...warfarin, recorded_at: new Date().toISOString() }] } },
    })
    await waitFor(() => expect(document.body.textContent).toContain('Omeprazole 20 mg'))
    expect(screen.getAllByText(/^Not confirmed since /)).toHaveLength(1)
  })

  it('shows those confirmed at this visit as done, and no buttons on a closed visit', async () => {
    await renderScreen(<VisitMedicines patientId={9} appointmentId={30} closed />, {
      me: user(['view patient', 'record vitals']),
      api: { 'GET /patients/9/current-medicines': { data: [{ ...warfarin, confirmed_appointment_id: 30, confirmed_at: '2026-11-29T09:00:00Z', confirmed_by: 'Nurse Hoa' }, omeprazole] } },
    })
    await waitFor(() => expect(document.body.textContent).toContain('Confirmed at this visit'))
    expect(screen.queryByRole('button', { name: /still taking/i })).toBeNull()
  })
})

describe('The pharmacist\'s review of the list', () => {
  const byNurse: CurrentMedicine = {
    ...omeprazole, id: 6, medicine: 'Lisinopril 10 mg', source: 'elsewhere', needs_review: true,
    route: 'oral', indication: 'high blood pressure', last_dose: '2026-11-28T08:30', adherence: 'irregular', information_source: 'carer',
  }
  const wrong: CurrentMedicine = { ...omeprazole, id: 7, medicine: 'Digoxin 0.25 mg', error_reason: 'Wrong patient', error_at: '2026-11-29T09:00:00Z', error_by: 'Dr An', version: 2 }

  it('shows what a reconciliation recorded, only when set, and "not yet reviewed" on what a nurse recorded', async () => {
    await renderScreen(<PatientMedicines patientId={9} />, { me: user(['view patient', 'record vitals']), api: { 'GET /patients/9/current-medicines': { data: [byNurse, warfarin] } } })
    await waitFor(() => expect(document.body.textContent).toContain('Lisinopril 10 mg'))
    const lines = screen.getAllByTestId('reconciled')
    expect(lines).toHaveLength(1)
    expect(lines[0].textContent).toBe('Route: oral · For high blood pressure · Last dose 2026-11-28 08:30 · Information from: Relative or carer')
    expect(screen.getByText('Taking irregularly')).toBeTruthy()
    expect(screen.getAllByTestId('not-reviewed')).toHaveLength(1)
    // a nurse may not review
    expect(screen.queryByRole('button', { name: /reviewed/i })).toBeNull()
  })

  it('lets a prescriber mark reviewed, at the version read', async () => {
    const { sent } = await renderScreen(<PatientMedicines patientId={9} />, {
      me: user(['view patient', 'write prescription']),
      api: { 'GET /patients/9/current-medicines': { data: [byNurse, warfarin] }, 'POST /current-medicines/6/review': { ...byNurse, needs_review: false, reviewed_at: '2026-11-29T09:00:00Z', reviewed_by: 'Dr An' } },
    })
    expect(screen.queryByRole('button', { name: 'Mark Warfarin 5 mg tablet reviewed' })).toBeNull()
    fireEvent.click(await screen.findByRole('button', { name: 'Mark Lisinopril 10 mg reviewed' }))
    await waitFor(() => expect(sent.length).toBe(1))
    expect(sent[0]).toMatchObject({ path: '/current-medicines/6/review', body: { version: 1 } })
  })

  it('lists what no doctor reviewed first, for the doctor at the visit', async () => {
    await renderScreen(<VisitMedicines patientId={9} appointmentId={30} closed={false} />, {
      me: user(['view patient', 'write prescription']),
      api: { 'GET /patients/9/current-medicines': { data: [warfarin, byNurse] } },
    })
    await waitFor(() => expect(document.body.textContent).toContain('Lisinopril 10 mg'))
    const names = [...screen.getByTestId('still-taking').querySelectorAll('strong')].map((e) => e.textContent)
    expect(names).toEqual(['Lisinopril 10 mg', 'Warfarin 5 mg tablet'])
  })

  it('marks an entry entered in error with a reason; one in error is off the list, struck out in its history', async () => {
    const { sent } = await renderScreen(<PatientMedicines patientId={9} />, {
      me: user(['view patient', 'record vitals']),
      api: { 'GET /patients/9/current-medicines': { data: [warfarin, wrong] }, 'POST /current-medicines/3/entered-in-error': { ...warfarin, error_reason: 'Wrong medicine', version: 2 } },
    })
    await waitFor(() => expect(document.body.textContent).toContain('1 entered in error'))
    expect(screen.queryByRole('button', { name: 'Stop Digoxin 0.25 mg' })).toBeNull()
    fireEvent.click(screen.getByText('1 entered in error'))
    const entry = await screen.findByTestId('in-error-entry')
    expect(entry.querySelector('s')?.textContent).toBe('Digoxin 0.25 mg')
    expect(entry.textContent).toContain('Wrong patient (Dr An)')

    fireEvent.click(screen.getByRole('button', { name: 'Mark Warfarin 5 mg tablet entered in error' }))
    const dialog = await screen.findByRole('dialog')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark entered in error' }))
    await waitFor(() => expect(within(dialog).getByText('Give a reason.')).toBeTruthy())
    fireEvent.input(within(dialog).getByLabelText('Why is it in error?'), { target: { value: 'Wrong medicine' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark entered in error' }))
    await waitFor(() => expect(sent.length).toBe(1))
    expect(sent[0]).toMatchObject({ path: '/current-medicines/3/entered-in-error', body: { reason: 'Wrong medicine', version: 1 } })
  })

  it('records the reconciliation fields as the API takes them', async () => {
    const { sent } = await renderScreen(<PatientMedicines patientId={9} />, {
      me: user(['view patient', 'record vitals']),
      api: {
        'GET /patients/9/current-medicines': { data: [byNurse] },
        'PUT /current-medicines/6': ({ body }: { body: Record<string, unknown> }) => ({ ...byNurse, ...body, version: 2 }),
      },
    })
    fireEvent.click(await screen.findByRole('button', { name: 'Edit Lisinopril 10 mg' }))
    const dialog = await screen.findByRole('dialog')
    await choose(dialog, 'Source of information', 'Pharmacy record')
    fireEvent.click(within(dialog).getByLabelText('Not taking'))
    fireEvent.input(within(dialog).getByLabelText('Time (optional)'), { target: { value: '9:15' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(sent.length).toBe(1))
    expect(sent[0].body).toMatchObject({ route: 'oral', indication: 'high blood pressure', last_dose: '2026-11-28T09:15', adherence: 'not_taking', information_source: 'pharmacy', version: 1 })
  })
})

describe('readPartialDay', () => {
  it('reads a day or a month in the user\'s order as the API takes it', () => {
    expect(readPartialDay('05.03.2024')).toBe('2024-03-05')
    expect(readPartialDay('5/3/2024')).toBe('2024-03-05')
    expect(readPartialDay('03/2024')).toBe('2024-03')
    expect(readPartialDay(' 2024 ')).toBe('2024')
    expect(readPartialDay('2024-03-05')).toBe('2024-03-05')
    // Chinese writes the year first (2024/03/05, 2024/03), as the card shows it.
    expect(readPartialDay('2024/03/05')).toBe('2024-03-05')
    expect(readPartialDay('2024/3')).toBe('2024-03')
    expect(readPartialDay('2024.03')).toBe('2024-03')
  })

  it('reads back what the card shows a start as, in each language', () => {
    for (const lang of ['en', 'ru', 'zh', 'vi']) {
      for (const start of ['2019-03-05', '2019-03', '2019']) expect(readPartialDay(partialDay(start, lang))).toBe(start)
    }
  })
})

// The pharmacist's review of 2026-11-29, m9: the narrow-therapeutic-index medicines are
// confirmed one by one too.
describe('highAlert', () => {
  it.each([['Fondaparinux', 'B01AX05'], ['Carbamazepine', 'N03AF01'], ['Azathioprine', 'L04AX01'], ['Mercaptopurine', 'L01BB02'], ['Ciclosporin', 'L04AD01'], ['Warfarin', 'B01AA03']])('%s', (name, atc) => {
    expect(highAlert({ ...omeprazole, read_as: [{ name, atc }] })).toBe(true)
  })
  it('not omeprazole', () => expect(highAlert({ ...omeprazole, read_as: [{ name: 'Omeprazole', atc: 'A02BC01' }] })).toBe(false))
})
