// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { Schema } from '../../lib/schema'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import { PortalAccess } from './PortalAccess'

afterEach(cleanup)

const status = (more: Partial<Schema<'PortalStatus'>> = {}): Schema<'PortalStatus'> => ({
  enabled: true,
  invited_at: '2026-11-02T03:04:05Z',
  live_codes: 1,
  sessions: 0,
  guardians: [{ id: 3, channel: 'email', address: 'm***@example.test', created_at: '2026-11-03T03:04:05Z', mrn: '', name: '', patient_id: 0 }],
  ...more,
})

const open = (api: Record<string, unknown> = {}) =>
  renderScreen(<PortalAccess patientId={9} archived={false} name="Lan Trần" />, {
    me: user(['view patient', 'manage portal']),
    api: { 'GET /patients/9/portal': status(), ...api },
  })

describe('PortalAccess', () => {
  it('shows access, its guardians and the controls to link one, with no axe finding', async () => {
    const { container } = await open()
    const card = await screen.findByTestId('portal-access')
    await within(card).findByText('On', { exact: true })
    expect(within(card).getByRole('heading', { name: 'Parents and guardians' })).toBeTruthy()
    expect(within(card).getByText('m***@example.test')).toBeTruthy()
    const by = within(card).getByRole('group', { name: 'Link a guardian by' })
    expect(within(by).getByRole<HTMLInputElement>('radio', { name: 'E-mail' }).checked).toBe(true)
    expect(within(card).getByRole('button', { name: 'Link' }).hasAttribute('disabled')).toBe(true)
    expect(await axeViolations(container)).toEqual([])
  })

  it('links a guardian by e-mail on Enter in the address', async () => {
    const view = await open({ 'POST /patients/9/portal/guardians': status() })
    const address = await screen.findByRole('textbox', { name: "Guardian's e-mail" })
    fireEvent.input(address, { target: { value: 'mother@example.test' } })
    fireEvent.keyDown(address, { key: 'Enter' })
    await waitFor(() => expect(view.sent).toEqual([{ method: 'POST', path: '/patients/9/portal/guardians', body: { channel: 'email', address: 'mother@example.test' } }]))
  })

  it('asks before turning access off, and sends nothing on Cancel', async () => {
    const view = await open({ 'POST /patients/9/portal/revoke': status({ enabled: false }) })
    fireEvent.click(await screen.findByRole('button', { name: 'Turn off access' }))
    const ask = screen.getByRole('alertdialog', { name: /Turn off portal access\?/ })
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }))
    expect(view.sent).toEqual([])
    fireEvent.click(screen.getByRole('button', { name: 'Turn off access' }))
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Turn off access' }))
    await waitFor(() => expect(view.sent).toEqual([{ method: 'POST', path: '/patients/9/portal/revoke', body: undefined }]))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
  })

  it('shows a new access code once, spelled out for a screen reader, in a dialog that gives focus back', async () => {
    await open({ 'POST /patients/9/portal/invite': { code: 'ABCD-EFGH-JKLM', expires_at: '2026-12-30T00:00:00Z' } })
    const button = await screen.findByRole('button', { name: 'New access code' })
    button.focus()
    fireEvent.click(button)
    const dialog = await screen.findByRole('dialog', { name: 'Access code for the patient portal' })
    expect(within(dialog).getByRole('img', { name: 'Access code: A B C D - E F G H - J K L M' }).textContent).toBe('ABCD-EFGH-JKLM')
    expect(dialog.textContent).toContain('This code is shown only now')
    fireEvent.click(within(dialog).getByRole('button', { name: 'Done' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(button)
  })
})
