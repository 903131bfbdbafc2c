// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import type { Finding, RecordInput } from './api/types'
import { DeferDialog, plusDays, type Deferral } from './DeferDialog'
import { catalogue, record } from './fixtures'
import { GiveDialog } from './GiveDialog'
import { today } from './parts'

afterEach(cleanup)

const fever: Finding = { code: 'screening_fever', severity: 'stop', message: 'A fever of 38.6 °C: defer the dose.', vaccine: 'mmr', deferrable: true }

describe('deferring a dose at the screening', () => {
  it('offers the deferral when the check finds a reason not to give today, with what it found and the screening', async () => {
    const onDefer = vi.fn<(d: Deferral) => void>()
    await renderScreen(<GiveDialog patientId={9} onClose={() => {}} onDefer={onDefer} />, {
      me: user(['record immunisations']),
      api: {
        'GET /immunisation/catalogue': catalogue,
        'POST /patients/9/immunisations/check': ({ body }: { body: unknown }) => ({ findings: (body as RecordInput).screening.temperature_c ? [fever] : [] }),
      },
    })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await waitFor(() => {
      fireEvent.input(within(dialog).getByRole('combobox', { name: 'Vaccine' }), { target: { value: 'M-M-R' } })
      expect(within(dialog).getByRole('option', { name: 'M-M-R II' })).toBeTruthy()
    })
    fireEvent.click(within(dialog).getByRole('option', { name: 'M-M-R II' }))
    // Nothing found: no deferral offered.
    expect(within(dialog).queryByTestId('give-defer')).toBeNull()
    fireEvent.input(within(dialog).getByLabelText('Temperature (°C)'), { target: { value: '38.6' } })
    const defer = await within(dialog).findByTestId('give-defer')
    fireEvent.click(defer)
    expect(onDefer).toHaveBeenCalledTimes(1)
    const d = onDefer.mock.calls[0][0]
    expect(d.vaccine).toBe('mmr')
    expect(d.vaccineName).toBe('M-M-R II')
    expect(d.reason).toBe('A fever of 38.6 °C: defer the dose.')
    expect(d.screening.temperature_c).toBe(38.6)
    expect(d.unwell).toBe(true)
    expect(d.antigens).toEqual(['measles', 'mumps', 'rubella'])
  })

  it('with a contraindication beside a fever, defers every vaccine only and names the contraindication for the doctor', async () => {
    const onDefer = vi.fn<(d: Deferral) => void>()
    const severe: Finding = { code: 'screening_severe_reaction', severity: 'stop', message: 'A severe reaction after an earlier dose.', vaccine: 'mmr' }
    await renderScreen(<GiveDialog patientId={9} onClose={() => {}} onDefer={onDefer} />, {
      me: user(['record immunisations']),
      api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations/check': () => ({ findings: [fever, severe] }) },
    })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await waitFor(() => {
      fireEvent.input(within(dialog).getByRole('combobox', { name: 'Vaccine' }), { target: { value: 'M-M-R' } })
      expect(within(dialog).getByRole('option', { name: 'M-M-R II' })).toBeTruthy()
    })
    fireEvent.click(within(dialog).getByRole('option', { name: 'M-M-R II' }))
    fireEvent.click(await within(dialog).findByTestId('give-defer'))
    const d = onDefer.mock.calls[0][0]
    expect(d.reason).toBe('A fever of 38.6 °C: defer the dose.')
    expect(d.contraindications).toEqual(['A severe reaction after an earlier dose.'])
    cleanup()
    await renderScreen(<DeferDialog patientId={9} deferral={{ ...d, unwell: false }} onClose={() => {}} />, { me: user(['record immunisations']), api: { 'GET /immunisation/catalogue': catalogue } })
    const defer = screen.getByRole('dialog', { name: 'Defer every vaccine' })
    expect(within(defer).getByTestId('defer-contraindicated').textContent).toContain('A severe reaction after an earlier dose.')
    expect((within(defer).getByRole('radio', { name: 'M-M-R II only' }) as HTMLInputElement).disabled).toBe(true)
    expect((within(defer).getByRole('radio', { name: 'Every vaccine (the child is unwell)' }) as HTMLInputElement).checked).toBe(true)
  })

  it('offers no deferral for a contraindication', async () => {
    const severe: Finding = { code: 'screening_severe_reaction', severity: 'stop', message: 'A severe reaction after an earlier dose.', vaccine: 'mmr' }
    await renderScreen(<GiveDialog patientId={9} onClose={() => {}} onDefer={() => {}} />, {
      me: user(['record immunisations']),
      api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations/check': () => ({ findings: [severe] }) },
    })
    const dialog = screen.getByRole('dialog', { name: 'Give a dose' })
    await waitFor(() => {
      fireEvent.input(within(dialog).getByRole('combobox', { name: 'Vaccine' }), { target: { value: 'M-M-R' } })
      expect(within(dialog).getByRole('option', { name: 'M-M-R II' })).toBeTruthy()
    })
    fireEvent.click(within(dialog).getByRole('option', { name: 'M-M-R II' }))
    await within(dialog).findByTestId('finding-screening_severe_reaction')
    expect(within(dialog).queryByTestId('give-defer')).toBeNull()
  })

  it('defers every vaccine for an unwell child, and says which doses the day to come back would lose', async () => {
    const onClose = vi.fn()
    const deferral: Deferral = { vaccine: 'mmr', vaccineName: 'M-M-R II', antigens: ['measles'], unwell: true, reason: 'Fever', screening: { temperature_c: 38.6 } as RecordInput['screening'] }
    const rota = { antigen: 'rotavirus', schedule: 'who', dose_number: 1, doses: 2, status: 'due' as const, vaccines: ['rv1'], source: '', outside_programme: false, latest_on: plusDays(today(), 3) }
    const { sent } = await renderScreen(<DeferDialog patientId={9} deferral={deferral} forecast={[rota]} onClose={onClose} />, {
      me: user(['record immunisations']),
      api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations': () => record(61, { kind: 'deferred', vaccine: '' }) },
    })
    const dialog = screen.getByRole('dialog', { name: 'Defer every vaccine' })
    expect((within(dialog).getByRole('radio', { name: 'Every vaccine (the child is unwell)' }) as HTMLInputElement).checked).toBe(true)
    const back = within(dialog).getByLabelText('Come back on')
    fireEvent.input(back, { target: { value: plusDays(today(), 7) } })
    fireEvent.blur(back)
    expect((await within(dialog).findByTestId('defer-lost')).textContent).toContain('dose 1 only until')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Defer' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent.find((s) => s.method === 'POST')?.body).toMatchObject({ kind: 'deferred', vaccine: '', antigen: '' })
  })

  it('asks the day to come back, within 90 days, and records the deferral with its screening', async () => {
    const onClose = vi.fn()
    const deferral: Deferral = { vaccine: 'mmr', vaccineName: 'M-M-R II', antigens: ['measles', 'mumps', 'rubella'], unwell: false, reason: 'A fever of 38.6 °C', screening: { pregnant: null, immunosuppressed: null, fever: true, temperature_c: 38.6 } as RecordInput['screening'] }
    const { sent } = await renderScreen(<DeferDialog patientId={9} deferral={deferral} onClose={onClose} />, {
      me: user(['record immunisations']),
      api: { 'POST /patients/9/immunisations': ({ body }: { body: unknown }) => record(60, { kind: 'deferred', vaccine: (body as RecordInput).vaccine }) },
    })
    const dialog = screen.getByRole('dialog', { name: 'Defer M-M-R II' })
    expect((within(dialog).getByLabelText('Reason') as HTMLTextAreaElement).value).toBe('A fever of 38.6 °C')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Defer' }))
    expect(await within(dialog).findByText('Choose the day to come back.')).toBeTruthy()
    const back = within(dialog).getByLabelText('Come back on')
    fireEvent.input(back, { target: { value: plusDays(today(), 91) } })
    fireEvent.blur(back)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Defer' }))
    expect(await within(dialog).findByText(/at most 90 days/)).toBeTruthy()
    expect(sent.filter((s) => s.method === 'POST')).toHaveLength(0)
    fireEvent.input(back, { target: { value: plusDays(today(), 7) } })
    fireEvent.blur(back)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Defer' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    const body = sent.find((s) => s.method === 'POST')?.body as RecordInput
    expect(body).toMatchObject({ kind: 'deferred', vaccine: 'mmr', occurred_on: today(), until_on: plusDays(today(), 7), reason: 'A fever of 38.6 °C' })
    expect(body.screening.temperature_c).toBe(38.6)
    expect(await axeViolations(document.body)).toEqual([])
  })

  it('reads days across a month end', () => {
    expect(plusDays('2026-01-31', 1)).toBe('2026-02-01')
    expect(plusDays('2026-12-25', 7)).toBe('2027-01-01')
  })
})
