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
    expect(checked.at(-1)?.screening).toEqual({ pregnant: true, immunosuppressed: null })
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
})
