// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../test/axe'
import { Refusal, renderScreen, user } from '../../test/render'
import type { RecordInput } from './api/types'
import { plusDays } from './DeferDialog'
import { ElsewhereDialog, ExclusionDialog, InErrorDialog } from './Dialogs'
import { today } from './parts'
import { catalogue, record } from './fixtures'

afterEach(cleanup)

const me = user(['record immunisations'])
const dose = record(2, { occurred_on: '2026-11-02' })

describe('ElsewhereDialog', () => {
  it('asks the vaccine, the date and where the record comes from, then saves it as given elsewhere', async () => {
    const onClose = vi.fn()
    const { sent } = await renderScreen(<ElsewhereDialog patientId={9} onClose={onClose} />, {
      me,
      api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations': () => record(60, { kind: 'elsewhere' }) },
    })
    const dialog = screen.getByRole('dialog', { name: 'Dose given elsewhere' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Choose the vaccine.')).toBeTruthy()
    expect(within(dialog).getByText('Enter the date.')).toBeTruthy()
    expect(within(dialog).getByText('Say where the record of this dose comes from.')).toBeTruthy()
    expect(sent).toHaveLength(0)
    expect(await axeViolations(dialog)).toEqual([])
    await waitFor(() => {
      fireEvent.input(within(dialog).getByRole('combobox', { name: 'Vaccine' }), { target: { value: 'BCG' } })
      expect(within(dialog).getByRole('option', { name: 'BCG' })).toBeTruthy()
    })
    fireEvent.click(within(dialog).getByRole('option', { name: 'BCG' }))
    const day = within(dialog).getByLabelText('Date given')
    fireEvent.input(day, { target: { value: '2026-01-03' } })
    fireEvent.blur(day)
    fireEvent.click(within(dialog).getByRole('radio', { name: 'vaccination card' }))
    fireEvent.input(within(dialog).getByLabelText('Where it was given'), { target: { value: 'Tu Du Hospital' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent[0]?.body).toMatchObject({ kind: 'elsewhere', vaccine: 'bcg', occurred_on: '2026-01-03', source: 'card', place: 'Tu Du Hospital' } satisfies Partial<RecordInput>)
  })
})

describe('ElsewhereDialog: a hepatitis B birth dose', () => {
  it("asks whether the baby weighed under 2,000 g, for a hepatitis B vaccine only, and sends it", async () => {
    const onClose = vi.fn()
    const { sent } = await renderScreen(<ElsewhereDialog patientId={9} onClose={onClose} />, {
      me,
      api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations': () => record(63, { kind: 'elsewhere' }) },
    })
    const dialog = screen.getByRole('dialog', { name: 'Dose given elsewhere' })
    expect(within(dialog).queryByRole('checkbox', { name: 'The baby weighed under 2,000 g when given it' })).toBeNull()
    await waitFor(() => {
      fireEvent.input(within(dialog).getByRole('combobox', { name: 'Vaccine' }), { target: { value: 'Engerix' } })
      expect(within(dialog).getByRole('option', { name: 'Engerix-B (paediatric)' })).toBeTruthy()
    })
    fireEvent.click(within(dialog).getByRole('option', { name: 'Engerix-B (paediatric)' }))
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'The baby weighed under 2,000 g when given it' }))
    const day = within(dialog).getByLabelText('Date given')
    fireEvent.input(day, { target: { value: '2026-01-01' } })
    fireEvent.blur(day)
    fireEvent.click(within(dialog).getByRole('radio', { name: 'vaccination card' }))
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect((sent[0]!.body as RecordInput).screening.weight_under_2000g).toBe(true)
  })
})

describe('ExclusionDialog', () => {
  it('records a contraindication of an antigen with its reason, the server refusing a field shown under it', async () => {
    let tries = 0
    const onClose = vi.fn()
    const { sent } = await renderScreen(<ExclusionDialog patientId={9} onClose={onClose} />, {
      me,
      api: {
        'GET /immunisation/catalogue': catalogue,
        'POST /patients/9/immunisations': () => {
          tries++
          if (tries === 1) throw new Refusal(422, { error: 'Please correct the highlighted fields.', code: 'error.invalid', errors: { reason: ['Say more: at least 5 characters.'] } })
          return record(61, { kind: 'contraindicated' })
        },
      },
    })
    const dialog = screen.getByRole('dialog', { name: 'Refusal, contraindication or deferral' })
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Contraindicated' }))
    expect(within(dialog).getByText('A medical reason not to give it (a contraindication).')).toBeTruthy()
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Choose the antigen.')).toBeTruthy()
    expect(within(dialog).getByText('Give the reason.')).toBeTruthy()
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Measles' })).toBeTruthy())
    fireEvent.change(within(dialog).getByLabelText('Antigen'), { target: { value: 'measles' } })
    fireEvent.input(within(dialog).getByLabelText('Reason'), { target: { value: 'SCID' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Say more: at least 5 characters.')).toBeTruthy()
    fireEvent.input(within(dialog).getByLabelText('Reason'), { target: { value: 'Severe combined immunodeficiency' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent[1]?.body).toMatchObject({ kind: 'contraindicated', antigen: 'measles', reason: 'Severe combined immunodeficiency', vaccine: '' })
    expect(await axeViolations(document.body)).toEqual([])
  })
})

describe('ExclusionDialog: a deferral', () => {
  it('asks the day to come back, after the day of the deferral', async () => {
    const onClose = vi.fn()
    const { sent } = await renderScreen(<ExclusionDialog patientId={9} onClose={onClose} />, {
      me,
      api: { 'GET /immunisation/catalogue': catalogue, 'POST /patients/9/immunisations': () => record(62, { kind: 'deferred' }) },
    })
    const dialog = screen.getByRole('dialog', { name: 'Refusal, contraindication or deferral' })
    fireEvent.click(within(dialog).getByRole('radio', { name: 'Deferred' }))
    await waitFor(() => expect(within(dialog).getByRole('option', { name: 'Measles' })).toBeTruthy())
    fireEvent.change(within(dialog).getByLabelText('Antigen'), { target: { value: 'measles' } })
    fireEvent.input(within(dialog).getByLabelText('Reason'), { target: { value: 'Acute otitis media' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('Choose the day to come back.')).toBeTruthy()
    const back = within(dialog).getByLabelText('Come back on')
    fireEvent.input(back, { target: { value: today() } })
    fireEvent.blur(back)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    expect(await within(dialog).findByText('The day to come back must be after the day of the deferral.')).toBeTruthy()
    fireEvent.input(back, { target: { value: plusDays(today(), 10) } })
    fireEvent.blur(back)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent.find((s) => s.method === 'POST')?.body).toMatchObject({ kind: 'deferred', antigen: 'measles', until_on: plusDays(today(), 10) })
  })
})

describe('InErrorDialog', () => {
  it('needs a reason, and on a stale version (409) says so and closes for the card to read it again', async () => {
    const onClose = vi.fn()
    const { sent } = await renderScreen(<InErrorDialog patientId={9} r={dose} onClose={onClose} />, {
      me,
      api: {
        'POST /immunisations/2/entered-in-error': () => {
          throw new Refusal(409, { error: 'This record was changed by someone else. Reload it and try again.', code: 'error.conflict' })
        },
      },
    })
    const dialog = screen.getByRole('dialog', { name: 'Engerix-B (paediatric) of 2026-11-02: entered in error' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark entered in error' }))
    expect(await within(dialog).findByText('Give the reason.')).toBeTruthy()
    expect(sent).toHaveLength(0)
    fireEvent.input(within(dialog).getByLabelText('Reason'), { target: { value: 'Wrong child' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Mark entered in error' }))
    await waitFor(() => expect(onClose).toHaveBeenCalled())
    expect(sent[0]?.body).toEqual({ reason: 'Wrong child', version: 1 })
    expect(await screen.findByText('This record was changed by someone else. Reload it and try again.')).toBeTruthy()
  })
})
