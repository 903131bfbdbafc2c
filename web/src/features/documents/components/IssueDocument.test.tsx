// @vitest-environment jsdom
// Issuing a document on the light components: a template chosen by its search, its fields
// checked before anything is sent (a required one, a number as the language writes it), the
// server's word under the field it names, and the documents card's list with its actions named.
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../../test/axe'
import { Refusal, renderScreen, user } from '../../../test/render'
import { DocumentsCard } from './DocumentList'
import { IssueDocument } from './IssueDocument'

afterEach(cleanup)

const template = {
  id: 4,
  name: 'Medical certificate',
  language: 'en',
  kind: 'medical_certificate',
  paper: 'a5-portrait',
  active: true,
  needs_visit: true,
  body: 'Rest for {{fields.days}} days from {{fields.from}}. {{fields.note}}',
  fields: [
    { key: 'days', label: 'Days off', type: 'number', required: true },
    { key: 'from', label: 'Off from', type: 'date', required: false },
    { key: 'note', label: 'Note', type: 'long_text', required: false },
  ],
}
const api = (issue: unknown) => ({
  'GET /document-templates': { data: [template, { ...template, id: 5, name: 'Referral', fields: [] }] },
  'GET /settings/clinic': { name: 'Clinic', public_url: '' },
  'POST /document-templates/preview': ({ body }: { body: unknown }) => ({ content: [{ type: 'paragraph', runs: [{ text: JSON.stringify((body as { values: unknown }).values) }] }] }),
  'POST /documents': issue,
})

const chooseCertificate = async (dialog: HTMLElement) => {
  const box = within(dialog).getByRole('combobox', { name: 'Template' })
  fireEvent.click(box)
  fireEvent.click(await within(dialog).findByRole('option', { name: 'Medical certificate — English' }))
  return box
}

describe('IssueDocument', () => {
  it('checks the fields before sending, then issues the document with them as the API takes them', async () => {
    const { sent, container } = await renderScreen(<IssueDocument patientId={3} appointmentId={8} open onClose={() => {}} />, {
      me: user(['issue documents']),
      api: api({ id: 9, number: 'MC-2026-000001', version: 1 }),
    })
    const dialog = screen.getByRole('dialog', { name: 'Issue a document' })
    expect((within(dialog).getByRole('button', { name: 'Issue and print' }) as HTMLButtonElement).disabled).toBe(true)
    const box = await chooseCertificate(dialog)
    expect((box as HTMLInputElement).value).toBe('Medical certificate — English')
    expect(await within(dialog).findByTestId('no-public-address')).toBeTruthy()
    // The required number left empty: said under it, nothing sent.
    fireEvent.click(within(dialog).getByRole('button', { name: 'Issue and print' }))
    const days = within(dialog).getByRole('textbox', { name: 'Days off' })
    await waitFor(() => expect(days.getAttribute('aria-invalid')).toBe('true'))
    expect(within(dialog).getByText('This field is required.')).toBeTruthy()
    expect(sent.filter((r) => r.path === '/documents')).toHaveLength(0)
    fireEvent.input(days, { target: { value: '3' } })
    expect(days.getAttribute('aria-invalid')).toBeNull()
    const from = within(dialog).getByRole('textbox', { name: 'Off from' })
    fireEvent.input(from, { target: { value: '2026-11-25' } })
    fireEvent.keyDown(from, { key: 'Enter' })
    // The preview fills in what is typed (after a pause).
    const preview = within(dialog).getByRole('region', { name: 'Preview' })
    await waitFor(() => expect(preview.textContent).toContain('"days":"3","from":"2026-11-25"'), { timeout: 2000 })
    expect(await axeViolations(container)).toEqual([])
    fireEvent.click(within(dialog).getByRole('button', { name: 'Issue and print' }))
    await waitFor(() => expect(sent.filter((r) => r.path === '/documents')).toHaveLength(1))
    expect(sent.find((r) => r.path === '/documents')!.body).toEqual({ template_id: 4, patient_id: 3, appointment_id: 8, fields: { days: '3', from: '2026-11-25' } })
    expect(await screen.findByText('Document MC-2026-000001 issued')).toBeTruthy()
  })

  it('shows the server’s refusal, and its message under the field it names', async () => {
    await renderScreen(<IssueDocument patientId={3} appointmentId={8} open onClose={() => {}} />, {
      me: user(['issue documents']),
      api: api(() => {
        throw new Refusal(422, { error: 'The document cannot be issued.', errors: { 'fields.days': ['At most 30 days.'] } })
      }),
    })
    const dialog = screen.getByRole('dialog', { name: 'Issue a document' })
    await chooseCertificate(dialog)
    fireEvent.input(within(dialog).getByRole('textbox', { name: 'Days off' }), { target: { value: '45' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Issue and print' }))
    const days = within(dialog).getByRole('textbox', { name: 'Days off' })
    await waitFor(() => expect(days.getAttribute('aria-invalid')).toBe('true'))
    expect(document.getElementById(days.getAttribute('aria-describedby')!.split(' ').pop()!)!.textContent).toBe('At most 30 days.')
    // The notice says what the server said (its field's words, as the library's dialog did).
    expect(within(dialog).getByRole('alert').textContent).toContain('At most 30 days.')
  })
})

describe('DocumentsCard', () => {
  it('lists the issued documents with their print and cancel named by their number, and offers a new one', async () => {
    const doc = { id: 9, number: 'MC-2026-000001', title: 'Medical certificate', language: 'en', status: 'issued', issued_at: '2026-11-25T09:00:00Z', doctor: { id: 2, name: 'Dr Tran' }, cancel_reason: '', version: 1 }
    const { container } = await renderScreen(<DocumentsCard patientId={3} appointmentId={8} />, {
      me: user(['issue documents']),
      api: { 'GET /documents': { data: [doc, { ...doc, id: 10, number: 'MC-2026-000002', status: 'cancelled', cancel_reason: 'Wrong dates' }] }, 'GET /document-templates': { data: [] } },
    })
    const card = screen.getByTestId('documents')
    expect(within(card).getByRole('heading', { name: 'Documents' })).toBeTruthy()
    const items = await within(card).findAllByTestId('document-item')
    expect(items).toHaveLength(2)
    expect(within(items[0]!).getByRole('link', { name: 'Print MC-2026-000001' }).getAttribute('href')).toBe('/documents/9/print')
    expect(within(items[0]!).getByRole('button', { name: 'Cancel document MC-2026-000001' })).toBeTruthy()
    expect(within(items[1]!).queryByRole('button')).toBeNull()
    expect(items[1]!.textContent).toContain('Wrong dates')
    fireEvent.click(within(card).getByRole('button', { name: 'Issue a document' }))
    expect(screen.getByRole('dialog', { name: 'Issue a document' })).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })
})
