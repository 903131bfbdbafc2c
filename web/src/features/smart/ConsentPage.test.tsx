// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { setLanguage } from '../../lib/i18n'
import { renderScreen, user } from '../../test/render'
import ConsentPage from './ConsentPage'

afterEach(async () => {
  cleanup()
  await setLanguage('en')
})

const app = { name: 'Growth chart', client_id: 'emr-app-1' }
const patient = { id: 9, name: 'Lê Minh Van', first_name: 'Minh', middle_name: 'Van', last_name: 'Lê', mrn: '2026-000009', birth_date: '1970-03-02' }
const at = '/smart/authorize?client_id=emr-app-1&scope=launch%20patient%2F*.rs'

describe('ConsentPage', () => {
  it.each([
    ['en', 'Minh Van Lê'],
    ['ru', 'Lê Minh Van'],
    ['vi', 'Lê Van Minh'],
  ] as const)('names the patient of an EHR launch in the order %s writes names: %s', async (lang, name) => {
    await renderScreen(<ConsentPage />, {
      me: user(['view patient']),
      route: '/smart/authorize',
      at,
      api: { 'GET /smart/authorize': { app, scopes: ['launch', 'patient/*.rs'], withheld: [], needs_patient: false, patient } },
    })
    await act(() => setLanguage(lang))
    await waitFor(() => expect(screen.getByTestId('consent-patient').textContent).toContain(name))
    expect(screen.getByTestId('consent-patient').textContent).toContain('2026-000009')
  })

  it('asks a standalone launch to choose the patient with the shared picker, and sends the one chosen', async () => {
    const view = await renderScreen(<ConsentPage />, {
      me: user(['view patient']),
      route: '/smart/authorize',
      at,
      api: {
        'GET /smart/authorize': { app, scopes: ['launch/patient', 'patient/*.rs'], withheld: ['patient/Practitioner.rs'], needs_patient: true },
        'GET /patients': { data: [{ ...patient, sex: 'male', phone: '' }] },
        'POST /smart/authorize': { redirect: 'about:blank' },
      },
    })
    const picker = await screen.findByRole('combobox', { name: 'Patient the app opens' })
    const allow = screen.getByRole('button', { name: 'Allow' })
    expect(allow.hasAttribute('disabled')).toBe(true)
    expect(screen.getByText('patient/Practitioner.rs')).toBeTruthy()
    fireEvent.change(picker, { target: { value: 'Lê' } })
    // The list shows the name, then the birth date and number (a line of their own on a phone);
    // the option's accessible name keeps all three.
    const name = await screen.findByText('Minh Van Lê', {}, { timeout: 3000 })
    expect(name.closest('.patient-option')?.textContent).toBe('Minh Van Lê1970-03-02 · 2026-000009')
    expect(screen.getByRole('option', { name: '2026-000009 — Minh Van Lê (1970-03-02)' })).toBeTruthy()
    fireEvent.click(name)
    await waitFor(() => expect(allow.hasAttribute('disabled')).toBe(false))
    fireEvent.click(allow)
    await waitFor(() => expect(view.sent.find((s) => s.path === '/smart/authorize')?.body).toMatchObject({ approve: true, patient_id: 9 }))
  })

})
