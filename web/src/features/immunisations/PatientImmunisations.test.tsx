// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import { blankScreening } from './parts'
import { catalogue, child, fever, record } from './fixtures'
import { PatientImmunisations } from './PatientImmunisations'

afterEach(cleanup)

const api = { 'GET /patients/9/immunisations': child, 'GET /immunisation/catalogue': catalogue }

describe('PatientImmunisations', () => {
  it('shows the forecast overdue first, then due, upcoming, and the rest, each status in words', async () => {
    await renderScreen(<PatientImmunisations patientId={9} />, { me: user(['record immunisations']), api })
    const forecast = await screen.findByTestId('forecast')
    const table = within(forecast).getByRole('table')
    await within(table).findByText('Engerix-B (paediatric)', { exact: false })
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows.map((r) => within(r).getByTestId('forecast-status').textContent)).toEqual(['Overdue', 'Due', 'Upcoming', 'Refused', 'Complete'])
    expect(rows[0].textContent).toContain('Hepatitis B')
    expect(rows[0].textContent).toContain('2 of 3')
    // The products that give it, the clinic's stocked ones first.
    expect(rows[0].textContent).toContain('Engerix-B (paediatric), Hexaxim (DTaP-IPV-Hib-HepB)')
    // The table is named by the heading above it.
    expect(within(forecast).getByRole('table', { name: 'Next doses (as of 2026-11-30)' })).toBeTruthy()
  })

  it('lists the doses by date, marks the one that does not count and why, strikes the one in error, and puts a reaction under its dose', async () => {
    await renderScreen(<PatientImmunisations patientId={9} />, { me: user(['record immunisations']), api })
    const record = await screen.findByTestId('record')
    const doses = within(record).getAllByTestId('dose')
    expect(doses.map((d) => d.textContent?.slice(0, 10))).toEqual(['2026-01-02', '2026-01-03', '2026-02-01', '2026-02-01'])
    // Counted as dose 1; given by a nurse here, lot and site.
    expect(doses[0].textContent).toContain('dose 1')
    expect(doses[0].textContent).toContain('Lot AB123, expires 2027-06-30 · Left thigh, Intramuscular · Given by Nurse Hoa')
    // Given elsewhere, from a card.
    expect(doses[1].textContent).toContain('Given elsewhere: vaccination card, Tu Du Hospital')
    // The hexavalent dose given too early: marked in words, for the whole combination.
    const hexa = doses[2]
    expect(hexa.textContent).toContain('(Diphtheria, Tetanus, Pertussis, Poliomyelitis, Hib, Hepatitis B)')
    expect(within(hexa).getByTestId('invalid-dose').textContent).toBe('✕Invalid dose, not counted: given before the minimum age')
    expect(within(hexa).getByTestId('reaction').textContent).toContain('Fever, moderate')
    expect(within(hexa).getByTestId('reaction').textContent).toContain('reported to District health centre')
    // Entered in error: struck through, with its reason, and no actions.
    const wrong = doses[3]
    expect(wrong.querySelector('s')?.textContent).toContain('M-M-R II')
    expect(wrong.textContent).toContain('Entered in error: Wrong child')
    expect(within(wrong).queryByRole('button')).toBeNull()
    expect(within(wrong).queryByTestId('invalid-dose')).toBeNull()
    // The refusal, with its reason and dates.
    const refusal = screen.getByTestId('exclusion')
    expect(refusal.textContent).toContain('Refused Pertussis · from 2026-04-01 · until 2026-10-01')
    expect(refusal.textContent).toContain('Parents decline for now')
    expect(await axeViolations(screen.getByTestId('immunisations'))).toEqual([])
  })

  it('marks a combination dose invalid for the antigen it does not count for only', async () => {
    const evaluations = [
      { record_id: 2, antigen: 'hepb', schedule: 'who', dose_number: 0, valid: false, reason: 'too_close' },
      ...['diphtheria', 'tetanus', 'pertussis', 'polio', 'hib'].map((antigen) => ({ record_id: 2, antigen, schedule: 'who', dose_number: 1, valid: true })),
    ]
    await renderScreen(<PatientImmunisations patientId={9} />, {
      me: user(['write diagnosis']),
      api: { ...api, 'GET /patients/9/immunisations': { ...child, forecast: { ...child.forecast, evaluations } } },
    })
    const marks = await screen.findByTestId('invalid-dose')
    expect(marks.textContent).toBe('✕Invalid for Hepatitis B, not counted: given too soon after the dose before')
    // A reader without the permission to record sees no actions.
    expect(screen.queryByRole('button', { name: 'Give a dose' })).toBeNull()
    expect(screen.queryByRole('button', { name: /entered in error/ })).toBeNull()
  })

  it('names the antigens of a combination one line per reason, and folds away products past two', async () => {
    const evaluations = [
      ...['diphtheria', 'tetanus', 'pertussis'].map((antigen) => ({ record_id: 2, antigen, schedule: 'who', dose_number: 0, valid: false, reason: 'too_early' })),
      { record_id: 2, antigen: 'hepb', schedule: 'who', dose_number: 0, valid: false, reason: 'not_needed' },
      ...['polio', 'hib'].map((antigen) => ({ record_id: 2, antigen, schedule: 'who', dose_number: 1, valid: true })),
    ]
    const recommendations = [{ antigen: 'measles', schedule: 'who', dose_number: 1, doses: 2, due_on: '2026-10-01', status: 'due' as const, vaccines: ['hexa', 'bcg', 'hepb', 'mmr'], source: 'test', outside_programme: false }]
    await renderScreen(<PatientImmunisations patientId={9} />, {
      me: user(['record vitals']),
      api: { ...api, 'GET /patients/9/immunisations': { ...child, forecast: { ...child.forecast, evaluations, recommendations } } },
    })
    const marks = await screen.findByTestId('invalid-dose')
    expect([...marks.querySelectorAll('strong')].map((s) => s.textContent)).toEqual([
      'Invalid for Diphtheria, Tetanus, Pertussis, not counted: given before the minimum age',
      'Invalid for Hepatitis B, not counted: the series was already complete',
    ])
    const row = within(screen.getByTestId('forecast')).getAllByRole('row')[1]
    // The stocked ones first, two shown; the rest behind "2 more".
    await waitFor(() => expect(row.textContent).toContain('Engerix-B (paediatric), M-M-R II2 more'))
    expect(within(row).getByText('2 more').tagName).toBe('SUMMARY')
  })

  it('reads a combination due on one day as one line naming its product, each antigen behind a disclosure, a service vaccine marked', async () => {
    const due = { schedule: 'who', dose_number: 1, doses: 2, earliest_on: '2026-10-01', due_on: '2026-10-01', overdue_on: '2026-12-01', status: 'due' as const, source: 'test' }
    const recommendations = [
      { ...due, antigen: 'measles', vaccines: ['mmr'], outside_programme: false },
      { ...due, antigen: 'mumps', vaccines: ['mmr'], outside_programme: true },
      { ...due, antigen: 'rubella', vaccines: ['mmr'], outside_programme: false },
      { ...due, antigen: 'hepb', dose_number: 2, doses: 3, due_on: '2026-11-01', vaccines: ['hepb'], outside_programme: false },
    ]
    await renderScreen(<PatientImmunisations patientId={9} />, {
      me: user(['record immunisations']),
      api: { ...api, 'GET /patients/9/immunisations': { ...child, forecast: { ...child.forecast, recommendations } } },
    })
    const table = within(await screen.findByTestId('forecast')).getByRole('table')
    await within(table).findAllByText('M-M-R II')
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(2)
    const mmr = rows.find((r) => r.textContent?.includes('M-M-R II'))!
    expect(mmr.textContent).toContain('Measles, Mumps, Rubella')
    expect(within(mmr).getByTestId('outside-programme').textContent).toBe('Outside the national programme (service vaccine)')
    const detail = within(mmr).getByTestId('visit-detail')
    expect(detail.querySelector('summary')?.textContent).toBe('Each of 3 antigens')
    expect([...detail.querySelectorAll('li')].map((li) => li.textContent)).toEqual(['Measles: 1 of 2, Due', 'Mumps: 1 of 2, Due', 'Rubella: 1 of 2, Due'])
    // Given from its line: the product, named.
    fireEvent.click(within(mmr).getByRole('button', { name: 'Give M-M-R II' }))
    expect(screen.getByRole('dialog', { name: 'Give a dose' })).toBeTruthy()
  })

  it('opens the give dialog from the card, and the in-error dialog named for its dose', async () => {
    await renderScreen(<PatientImmunisations patientId={9} />, { me: user(['record immunisations']), api })
    await screen.findByTestId('record')
    fireEvent.click(screen.getByRole('button', { name: 'Mark Engerix-B (paediatric) of 2026-01-02 entered in error' }))
    expect(screen.getByRole('dialog', { name: 'Engerix-B (paediatric) of 2026-01-02: entered in error' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    fireEvent.click(screen.getByRole('button', { name: 'Give a dose' }))
    expect(screen.getByRole('dialog', { name: 'Give a dose' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    // From the forecast's overdue row: the dialog opens on the product the clinic stocks that gives it.
    fireEvent.click(screen.getByRole('button', { name: 'Give Hepatitis B dose 2' }))
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    expect((within(dialog).getByRole('combobox', { name: 'Vaccine' }) as HTMLInputElement).value).toBe('Engerix-B (paediatric)')
    // Rows not due have no such button.
    expect(screen.queryByRole('button', { name: /Give Rubella/ })).toBeNull()
  })

  it('shows the screening stored with a dose, a reaction\'s outcome, marks a serious one not reported, and offers to mark a reaction entered in error', async () => {
    const screened = record(1, { occurred_on: '2026-01-02', screening: { ...blankScreening(), fever: false, acute_illness: false, weight_under_2000g: true, temperature_c: 36.8 } })
    const serious = { ...fever, id: 41, immunisation_id: 1, reaction: 'seizure', severity: 'severe' as const, serious: true, reported_to: '', reported_on: '', onset_time: '21:15', outcome: 'recovered_with_sequelae' as const }
    const withdrawn = { ...fever, id: 42, immunisation_id: 1, status: 'entered_in_error' as const, error_reason: 'Another child' }
    const data = { ...child, records: [screened], reactions: [serious, withdrawn], forecast: { ...child.forecast, evaluations: [] } }
    await renderScreen(<PatientImmunisations patientId={9} />, { me: user(['record immunisations']), api: { ...api, 'GET /patients/9/immunisations': data } })
    const dose = (await screen.findAllByTestId('dose'))[0]
    const summary = within(dose).getByTestId('screening-summary')
    expect(summary.textContent).toContain('Screening before the dose: 3 answers, 1 yes')
    expect(summary.textContent).toContain('Temperature 36.8 °C')
    expect(summary.textContent).toContain('Weighs under 2,000 g? Yes')
    const [line, struck] = within(dose).getAllByTestId('reaction')
    expect(line.textContent).toContain('onset 2026-03-03 21:15')
    expect(line.textContent).toContain('outcome: recovered with sequelae')
    expect(within(line).getByTestId('unreported').textContent).toBe('Serious, not yet reported')
    // One entered in error: struck through with its reason, not marked unreported, no action.
    expect(struck.querySelector('s')).toBeTruthy()
    expect(struck.textContent).toContain('Entered in error: Another child')
    expect(within(struck).queryByRole('button')).toBeNull()
    fireEvent.click(within(line).getByRole('button', { name: 'Mark the reaction Seizure, severe of 2026-03-03 entered in error' }))
    expect(await screen.findByRole('dialog', { name: /entered in error/ })).toBeTruthy()
    expect(await axeViolations(screen.getByTestId('immunisations'))).toEqual([])
  })
})
