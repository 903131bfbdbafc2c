// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../test/axe'
import { Refusal, renderScreen, user } from '../../test/render'
import type { Finding, RecordInput } from './api/types'
import { catalogue, record } from './fixtures'
import { GiveDialog } from './GiveDialog'

afterEach(cleanup)

const pregnancy: Finding = { code: 'live_pregnancy', severity: 'stop', message: 'M-M-R II is a live vaccine: not in pregnancy.', vaccine: 'mmr' }
const tooClose: Finding = { code: 'too_close', severity: 'warn', message: 'Under 4 weeks after the last measles dose.', vaccine: 'mmr', antigen: 'measles' }

const saves = (sent: { method: string; path: string; body: unknown }[]) => sent.filter((s) => s.path === '/patients/9/immunisations')

/** Writes the lot and its expiry, which a dose given here needs. */
function fillLot(dialog: HTMLElement) {
  fireEvent.input(within(dialog).getByLabelText('Lot number'), { target: { value: 'AB123' } })
  const expiry = within(dialog).getByLabelText('Lot expiry')
  fireEvent.input(expiry, { target: { value: '2030-06-30' } })
  fireEvent.blur(expiry)
  // The questions every dose is asked, answered no (a dose is not saved unscreened).
  for (const q of ['A moderate or severe acute illness, or a chronic one getting worse?', 'Abnormal heart or lung sounds?', 'Abnormal consciousness (drowsy, irritable, convulsing)?',
    'A severe reaction (anaphylaxis, or another reaction of grade III or worse) after an earlier dose of a vaccine with the same antigens?', 'Fever (38.0 °C or more) or a low temperature (35.5 °C or less)?']) {
    const no = within(within(dialog).getByRole('group', { name: q })).getByRole('radio', { name: 'No' })
    if (!(no as HTMLInputElement).checked) fireEvent.click(no)
  }
}

async function choose(dialog: HTMLElement, typed: string, name: string) {
  await waitFor(() => {
    fireEvent.input(within(dialog).getByRole('combobox', { name: 'Vaccine' }), { target: { value: typed } })
    expect(within(dialog).getByRole('option', { name })).toBeTruthy()
  })
  fireEvent.click(within(dialog).getByRole('option', { name }))
}

/** A birth date months before today, as an ISO date. */
function bornMonthsAgo(months: number) {
  const d = new Date()
  d.setMonth(d.getMonth() - months)
  return d.toISOString().slice(0, 10)
}

describe('GiveDialog', () => {
  it('offers the stocked vaccines first, then the rest, under their headings', async () => {
    await renderScreen(<GiveDialog patientId={9} onClose={() => {}} />, { me: user(['record immunisations']), api: { 'GET /immunisation/catalogue': catalogue } })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    const box = within(dialog).getByRole('combobox', { name: 'Vaccine' })
    await waitFor(() => {
      fireEvent.click(box)
      expect(within(within(dialog).getByRole('listbox', { name: 'Vaccine' })).getAllByRole('option').map((o) => o.textContent)).toEqual(['M-M-R II', 'Engerix-B (paediatric)', 'Hexaxim (DTaP-IPV-Hib-HepB)', 'BCG'])
    })
    expect(within(dialog).getByText('Stocked at this clinic')).toBeTruthy()
    expect(within(dialog).getByText('All vaccines')).toBeTruthy()
    // The date starts on today.
    expect((within(dialog).getByLabelText('Date given') as HTMLInputElement).value).not.toBe('')
    expect(await axeViolations(dialog)).toEqual([])
  })

  it('shows a stop finding where it is typed, as an alert, and asks a doctor for a reason before saving', async () => {
    const onClose = vi.fn()
    const checked: RecordInput[] = []
    const { sent } = await renderScreen(<GiveDialog patientId={9} onClose={onClose} />, {
      me: user(['record immunisations', 'write diagnosis']),
      api: {
        'GET /immunisation/catalogue': catalogue,
        'POST /patients/9/immunisations/check': ({ body }: { body: unknown }) => {
          const input = body as RecordInput
          checked.push(input)
          return { findings: input.vaccine === 'mmr' && input.screening.pregnant ? [pregnancy, tooClose] : [] }
        },
        'POST /patients/9/immunisations': ({ body }: { body: unknown }) => record(50, { vaccine: (body as RecordInput).vaccine }),
      },
    })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await waitFor(() => expect(within(dialog).getByRole('combobox', { name: 'Vaccine' })).toBeTruthy())
    await waitFor(() => {
      fireEvent.input(within(dialog).getByRole('combobox', { name: 'Vaccine' }), { target: { value: 'M-M-R' } })
      expect(within(dialog).getByRole('option', { name: 'M-M-R II' })).toBeTruthy()
    })
    fireEvent.click(within(dialog).getByRole('option', { name: 'M-M-R II' }))
    const pregnant = within(dialog).getByRole('group', { name: 'Pregnant?' })
    fireEvent.click(within(pregnant).getByRole('radio', { name: 'Yes' }))
    // The stop sits under the pregnancy question, as an alert; the warning under the date, as a notice.
    const stop = await within(dialog).findByTestId('finding-live_pregnancy')
    expect(stop.getAttribute('role')).toBe('alert')
    expect(stop.textContent).toContain('Stop: M-M-R II is a live vaccine: not in pregnancy.')
    expect(within(dialog).getByTestId('findings-pregnant').contains(stop)).toBe(true)
    const warn = within(dialog).getByTestId('finding-too_close')
    expect(warn.getAttribute('role')).toBeNull()
    expect(within(dialog).getByTestId('findings-occurred_on').contains(warn)).toBe(true)
    expect(checked.at(-1)?.screening).toMatchObject({ pregnant: true, immunosuppressed: null, fever: null, temperature_c: null })
    fillLot(dialog)
    // Saving without a reason is refused in the dialog; nothing is sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Say why the dose is given despite what the check found.')).toBeTruthy()
    expect(saves(sent)).toHaveLength(0)
    expect(onClose).not.toHaveBeenCalled()
    fireEvent.input(within(dialog).getByLabelText('Reason to go ahead'), { target: { value: 'Pregnancy test negative today; mother insists' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const body = saves(sent)[0]?.body as RecordInput
    expect(body.vaccine).toBe('mmr')
    expect(body.kind).toBe('given')
    expect(body.override_reason).toBe('Pregnancy test negative today; mother insists')
    expect(await axeViolations(document.body)).toEqual([])
  })

  it("shows the findings of a save refused for want of a reason (422) the same way", async () => {
    let refusedOnce = false
    const { sent } = await renderScreen(<GiveDialog patientId={9} onClose={() => {}} />, {
      me: user(['record immunisations', 'write diagnosis']),
      api: {
        'GET /immunisation/catalogue': catalogue,
        // The check found nothing as the form was filled (the allergy was recorded meanwhile); asked again after the refusal, it says what.
        'POST /patients/9/immunisations/check': () => ({ findings: refusedOnce ? [{ code: 'component_allergy', severity: 'stop', message: 'Anaphylaxis to gelatin: M-M-R II contains it.', vaccine: 'mmr', substance: 'gelatin' }] : [] }),
        'POST /patients/9/immunisations': () => {
          refusedOnce = true
          throw new Refusal(422, { error: 'This dose needs a reason to go ahead.', code: 'immunisation.needs_override', findings: [] })
        },
      },
    })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await waitFor(() => {
      fireEvent.input(within(dialog).getByRole('combobox', { name: 'Vaccine' }), { target: { value: 'mmr' } })
      expect(within(dialog).getByRole('option', { name: 'M-M-R II' })).toBeTruthy()
    })
    fireEvent.click(within(dialog).getByRole('option', { name: 'M-M-R II' }))
    fillLot(dialog)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    const stop = await within(dialog).findByTestId('finding-component_allergy')
    expect(stop.getAttribute('role')).toBe('alert')
    expect(within(dialog).getByTestId('findings-vaccine').contains(stop)).toBe(true)
    expect(await within(dialog).findByText('Say why the dose is given despite what the check found.')).toBeTruthy()
    expect(saves(sent)).toHaveLength(1)
  })

  it('leaves a stop to a doctor: a nurse sees why and no reason box, and Save sends nothing', async () => {
    const { sent } = await renderScreen(<GiveDialog patientId={9} onClose={() => {}} />, {
      me: user(['record immunisations']),
      api: {
        'GET /immunisation/catalogue': catalogue,
        'POST /patients/9/immunisations/check': ({ body }: { body: unknown }) => ({ findings: (body as RecordInput).screening.pregnant ? [pregnancy] : [] }),
      },
    })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await waitFor(() => {
      fireEvent.input(within(dialog).getByRole('combobox', { name: 'Vaccine' }), { target: { value: 'M-M-R' } })
      expect(within(dialog).getByRole('option', { name: 'M-M-R II' })).toBeTruthy()
    })
    fireEvent.click(within(dialog).getByRole('option', { name: 'M-M-R II' }))
    fireEvent.click(within(within(dialog).getByRole('group', { name: 'Pregnant?' })).getByRole('radio', { name: 'Yes' }))
    expect(await within(dialog).findByText('A stop is passed only by a doctor: ask the doctor to decide and record this dose, or do not give it.')).toBeTruthy()
    expect(within(dialog).queryByLabelText('Reason to go ahead')).toBeNull()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await new Promise((r) => setTimeout(r, 0))
    expect(saves(sent)).toHaveLength(0)
  })

  it('sends nothing on Enter in a field: a dose half recorded is saved by its button only', async () => {
    const { sent } = await renderScreen(<GiveDialog patientId={9} onClose={() => {}} />, { me: user(['record immunisations']), api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations/check': { findings: [] } } })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    const lot = within(dialog).getByLabelText('Lot number')
    fireEvent.input(lot, { target: { value: 'X1' } })
    expect(fireEvent.keyDown(lot, { key: 'Enter' })).toBe(false)
    expect(fireEvent.keyDown(within(dialog).getAllByRole('radio', { name: 'No' })[0], { key: 'Enter' })).toBe(false)
    expect(saves(sent)).toHaveLength(0)
    // OK with no vaccine: the form says so under the field, which takes focus.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Choose the vaccine.')).toBeTruthy()
    await waitFor(() => expect(document.activeElement).toBe(within(dialog).getByRole('combobox', { name: 'Vaccine' })))
    expect(saves(sent)).toHaveLength(0)
  })

  it('holds OK and says so when the lot has expired: no reason can give it', async () => {
    await renderScreen(<GiveDialog patientId={9} onClose={() => {}} />, {
      me: user(['record immunisations']),
      api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations/check': { findings: [{ code: 'expired_lot', severity: 'stop', message: 'Lot expired on 2026-10-31.', vaccine: 'hepb' }] } },
    })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await waitFor(() => {
      fireEvent.input(within(dialog).getByRole('combobox', { name: 'Vaccine' }), { target: { value: 'Engerix' } })
      expect(within(dialog).getByRole('option', { name: 'Engerix-B (paediatric)' })).toBeTruthy()
    })
    fireEvent.click(within(dialog).getByRole('option', { name: 'Engerix-B (paediatric)' }))
    const stop = await within(dialog).findByTestId('finding-expired_lot')
    expect(within(dialog).getByTestId('findings-expiry').contains(stop)).toBe(true)
    expect(within(dialog).getByText('A dose from an expired lot cannot be given. Choose another lot.')).toBeTruthy()
    expect((within(dialog).getByTestId('give-ok') as HTMLButtonElement).disabled).toBe(true)
    expect(within(dialog).queryByLabelText('Reason to go ahead')).toBeNull()
  })

  it('fills in the route from the product and the site for the child\'s age, both editable', async () => {
    await renderScreen(<GiveDialog patientId={9} birthDate={bornMonthsAgo(6)} onClose={() => {}} />, { me: user(['record immunisations']), api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations/check': { findings: [] } } })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await choose(dialog, 'Engerix', 'Engerix-B (paediatric)')
    expect((within(dialog).getByLabelText('Route') as HTMLSelectElement).value).toBe('IM')
    expect((within(dialog).getByLabelText('Site') as HTMLSelectElement).value).toBe('left_thigh')
    fireEvent.change(within(dialog).getByLabelText('Site'), { target: { value: 'right_thigh' } })
    expect((within(dialog).getByLabelText('Site') as HTMLSelectElement).value).toBe('right_thigh')
    await choose(dialog, 'BCG', 'BCG')
    expect((within(dialog).getByLabelText('Route') as HTMLSelectElement).value).toBe('ID')
    expect((within(dialog).getByLabelText('Site') as HTMLSelectElement).value).toBe('left_arm')
    cleanup()
    await renderScreen(<GiveDialog patientId={9} vaccine="hepb" birthDate={bornMonthsAgo(24)} onClose={() => {}} />, { me: user(['record immunisations']), api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations/check': { findings: [] } } })
    const again = screen.getByRole('dialog', { name: 'Give a dose' })
    // Named on opening (from the forecast): filled in once the catalogue is read; the deltoid from 12 months.
    await waitFor(() => expect((within(again).getByLabelText('Site') as HTMLSelectElement).value).toBe('left_arm'))
    expect((within(again).getByLabelText('Route') as HTMLSelectElement).value).toBe('IM')
  })

  it('asks for the lot\'s expiry before saving a dose given here', async () => {
    const { sent } = await renderScreen(<GiveDialog patientId={9} onClose={() => {}} />, { me: user(['record immunisations']), api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations/check': { findings: [] } } })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await choose(dialog, 'Engerix', 'Engerix-B (paediatric)')
    fireEvent.input(within(dialog).getByLabelText('Lot number'), { target: { value: 'AB123' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText("Enter the lot's expiry date.")).toBeTruthy()
    expect(saves(sent)).toHaveLength(0)
  })

  it('does not save a dose unscreened: each question every dose is asked says so under it', async () => {
    const { sent } = await renderScreen(<GiveDialog patientId={9} onClose={() => {}} />, { me: user(['record immunisations']), api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations/check': { findings: [] } } })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await choose(dialog, 'Engerix', 'Engerix-B (paediatric)')
    fireEvent.input(within(dialog).getByLabelText('Lot number'), { target: { value: 'AB123' } })
    fireEvent.input(within(dialog).getByLabelText('Lot expiry'), { target: { value: '2030-06-30' } })
    // A temperature answers the fever question; the other four are still to be answered.
    fireEvent.input(within(dialog).getByLabelText('Temperature (°C)'), { target: { value: '36.6' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findAllByText('Answer yes or no: every dose is screened for this.')).toHaveLength(4)
    expect(saves(sent)).toHaveLength(0)
  })

  it('puts the questions for the chosen vaccine first, sends every answer and the temperature, and shows a finding under its question', async () => {
    const checked: RecordInput[] = []
    const feverStop: Finding = { code: 'screening_fever', severity: 'stop', message: 'Fever at screening: defer.', vaccine: 'mmr' }
    await renderScreen(<GiveDialog patientId={9} onClose={() => {}} />, {
      me: user(['record immunisations']),
      api: {
        'GET /immunisation/catalogue': catalogue,
        'POST /patients/9/immunisations/check': ({ body }: { body: unknown }) => {
          const input = body as RecordInput
          checked.push(input)
          return { findings: (input.screening.temperature_c ?? 0) >= 38 ? [feverStop] : [] }
        },
      },
    })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await choose(dialog, 'M-M-R', 'M-M-R II')
    const legends = (id: string) => within(dialog).getByTestId(id).querySelectorAll('legend')
    const first = [...legends('questions-first')].map((l) => l.textContent)
    const rest = [...legends('questions-other')].map((l) => l.textContent)
    // A live injectable vaccine: pregnancy, immunosuppression and blood products among the first; intussusception (rotavirus) after.
    expect(first).toContain('Pregnant?')
    expect(first).toContain('Immunoglobulin or blood products in the last 3–11 months?')
    expect(first[0]).toBe('Fever (38.0 °C or more) or a low temperature (35.5 °C or less)?')
    expect(rest).toContain('A history of intussusception, or an uncorrected gut malformation that predisposes to it?')
    expect(rest).not.toContain('Pregnant?')
    fireEvent.click(within(within(dialog).getByRole('group', { name: 'Immunoglobulin or blood products in the last 3–11 months?' })).getByRole('radio', { name: 'No' }))
    // A temperature out of range is refused where it is typed and not checked.
    fireEvent.input(within(dialog).getByLabelText('Temperature (°C)'), { target: { value: '50' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Enter the temperature in °C, between 30.0 and 44.0.')).toBeTruthy()
    fireEvent.input(within(dialog).getByLabelText('Temperature (°C)'), { target: { value: '38.6' } })
    const stop = await within(dialog).findByTestId('finding-screening_fever')
    expect(within(dialog).getByTestId('findings-fever').contains(stop)).toBe(true)
    expect(checked.at(-1)?.screening).toMatchObject({ temperature_c: 38.6, blood_products_recent: false, fever: null, pregnant: null })
    expect(checked.some((c) => c.screening.temperature_c === 50)).toBe(false)
    expect(await axeViolations(dialog)).toEqual([])
  })

  it('reads a note (info) without asking a reason, and saves the dose as it is', async () => {
    const onClose = vi.fn()
    const note: Finding = { code: 'hepb_low_weight', severity: 'info', message: 'Under 2,000 g: the birth dose does not count in China.', vaccine: 'hepb' }
    const { sent } = await renderScreen(<GiveDialog patientId={9} onClose={onClose} />, {
      me: user(['record immunisations']),
      api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations/check': { findings: [note] }, 'POST /patients/9/immunisations': record(51, {}) },
    })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await choose(dialog, 'Engerix', 'Engerix-B (paediatric)')
    fireEvent.click(within(within(dialog).getByRole('group', { name: 'Weighs under 2,000 g?' })).getByRole('radio', { name: 'Yes' }))
    const info = await within(dialog).findByTestId('finding-hepb_low_weight')
    expect(info.textContent).toContain('Note: Under 2,000 g')
    expect(within(dialog).getByTestId('findings-weight_under_2000g').contains(info)).toBe(true)
    expect(within(dialog).queryByLabelText('Reason to go ahead')).toBeNull()
    fillLot(dialog)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect((saves(sent)[0]!.body as RecordInput).screening.weight_under_2000g).toBe(true)
  })
})
