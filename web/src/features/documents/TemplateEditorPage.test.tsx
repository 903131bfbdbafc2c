// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { Refusal, renderScreen, user, type Fixture } from '../../test/render'
import type { DocumentTemplate } from './api/types'
import TemplateEditorPage from './TemplateEditorPage'

afterEach(cleanup)

/** A sick note of the clinic's: a body with a placeholder, and a period to fill (days and the first day). */
const template: DocumentTemplate = {
  id: 4, name: 'Sick note', kind: 'medical_certificate', language: 'en', paper: 'a5-portrait', active: true, needs_visit: false,
  body: '# Sick note\nPatient: {{patient.name}}\n',
  fields: [
    { key: 'rest_days', label: 'Days of rest', type: 'number', required: true },
    { key: 'rest_from', label: 'First day', type: 'date', required: true },
  ],
  updated_at: '2026-11-29T08:00:00Z', version: 2,
}

const placeholders = { placeholders: ['patient.name', 'visit.chief_complaint', 'doctor.name', 'today'] }
const admin = user(['manage document templates'])

const open = (at: string, api: Record<string, Fixture>) =>
  renderScreen(<TemplateEditorPage />, { me: admin, api: { 'GET /document-templates/placeholders': placeholders, ...api }, route: '/forms/templates/:id', at })

const body = () => screen.getByLabelText('Text of the document') as HTMLTextAreaElement

describe('TemplateEditorPage', () => {
  it('shows a template with its fields, and its placeholders by group, a period also by its last day', async () => {
    await open('/forms/templates/4', { 'GET /document-templates/4': template })
    await waitFor(() => expect(body().value).toBe(template.body))
    expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Sick note')
    expect(screen.getAllByLabelText('Key (latin)').map((i) => (i as HTMLInputElement).value)).toEqual(['rest_days', 'rest_from'])
    expect((await screen.findByRole('button', { name: 'Days of rest' })).title).toBe('{{field.rest_days}}')
    expect(screen.getByRole('button', { name: 'Days of rest: the last day' }).title).toBe('{{field.rest_until}}')
    expect(screen.getByTitle('{{visit.chief_complaint}}').textContent).toBe('Chief complaint')
    expect(screen.getByTitle('{{today}}').textContent).toBe("Today's date")
  })

  it('puts a placeholder into the text where it is written', async () => {
    await open('/forms/templates/4', { 'GET /document-templates/4': template })
    await waitFor(() => expect(body().value).toBe(template.body))
    body().setSelectionRange(0, 0)
    fireEvent.click(screen.getByTitle('{{doctor.name}}'))
    await waitFor(() => expect(body().value).toBe(`{{doctor.name}}${template.body}`))
  })

  it('saves the changed template at the version read', async () => {
    const view = await open('/forms/templates/4', { 'GET /document-templates/4': template, 'PUT /document-templates/4': { ...template, name: 'Sick leave', version: 3 } })
    await waitFor(() => expect(body().value).toBe(template.body))
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Sick leave' } })
    fireEvent.click(screen.getByRole('button', { name: /save/i }))
    await screen.findByText('Template saved')
    expect(view.sent).toHaveLength(1)
    expect(view.sent[0]).toMatchObject({ method: 'PUT', path: '/document-templates/4', body: { id: 4, name: 'Sick leave', version: 2, fields: template.fields } })
  })

  it("shows the server's refusal on the field it names", async () => {
    const refuse = () => {
      const data = { error: 'Please correct the highlighted fields.', code: 'error.invalid', errors: { 'fields.0.key': ['Use small latin letters, digits and _.'] } }
      throw new Refusal(422, data)
    }
    await open('/forms/templates/4', { 'GET /document-templates/4': template, 'PUT /document-templates/4': refuse })
    await waitFor(() => expect(body().value).toBe(template.body))
    fireEvent.click(screen.getByRole('button', { name: /save/i }))
    expect((await screen.findByRole('alert')).textContent).toContain('Please correct the highlighted fields.')
    expect(await screen.findByText('Use small latin letters, digits and _.')).toBeTruthy()
  })

  it('asks for a new template its name and text before anything is sent, then creates it', async () => {
    const view = await open('/forms/templates/new', { 'POST /document-templates': { ...template, id: 9, version: 1 } })
    const card = (await screen.findByText('New template')).closest('.ant-card') as HTMLElement
    fireEvent.click(within(card).getByRole('button', { name: /save/i }))
    await waitFor(() => expect(screen.getAllByText('This field is required.')).toHaveLength(2))
    expect(view.sent).toHaveLength(0)
    fireEvent.input(screen.getByLabelText('Name'), { target: { value: 'Referral' } })
    fireEvent.input(body(), { target: { value: 'To {{doctor.name}}' } })
    fireEvent.click(within(card).getByRole('button', { name: /save/i }))
    await waitFor(() => expect(view.sent).toHaveLength(1))
    expect(view.sent[0]).toMatchObject({ method: 'POST', path: '/document-templates', body: { name: 'Referral', body: 'To {{doctor.name}}', kind: 'custom', paper: 'a5-portrait', fields: [], version: 0 } })
  })

  it('says so when the template does not exist', async () => {
    await open('/forms/templates/77', {})
    expect(await screen.findByText('This template does not exist.')).toBeTruthy()
  })
})
