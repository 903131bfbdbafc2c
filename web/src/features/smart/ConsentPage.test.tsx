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
    fireEvent.input(picker, { target: { value: 'Lê' } })
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

  it.each([
    ['en', ["Read this patient's measurements and results", "Read this patient's allergies", 'Read staff records', "Read and change prescriptions of any patient you may change", "Read this patient's vaccinations", "Read this patient's Goal"]],
    ['ru', ['Читать измерения и результаты этого пациента', 'Читать аллергии этого пациента', 'Читать сведения о сотрудниках', 'Читать и изменять рецепты любого пациента, которого вы можете изменять', 'Читать прививки этого пациента', 'Читать Goal этого пациента']],
    ['zh', ['读取此患者的测量与检验结果', '读取此患者的过敏史', '读取员工档案', '读取并修改您可修改的任何患者的处方', '读取此患者的预防接种', '读取此患者的Goal']],
    ['vi', ['Đọc chỉ số đo và kết quả của bệnh nhân này', 'Đọc dị ứng của bệnh nhân này', 'Đọc hồ sơ nhân viên', 'Đọc và sửa đơn thuốc của bất kỳ bệnh nhân nào bạn được sửa', 'Đọc tiêm chủng của bệnh nhân này', 'Đọc Goal của bệnh nhân này']],
  ] as const)('words each resource type in plain clinic words in %s, the scope itself beside it', async (lang, lines) => {
    const scopes = ['patient/Observation.rs', 'patient/AllergyIntolerance.rs', 'user/Practitioner.rs', 'user/MedicationRequest.cruds', 'patient/Immunization.rs', 'patient/Goal.rs']
    await renderScreen(<ConsentPage />, {
      me: user(['view patient']),
      route: '/smart/authorize',
      at,
      api: { 'GET /smart/authorize': { app, scopes, withheld: [], needs_patient: false, patient } },
    })
    await act(() => setLanguage(lang))
    for (const [i, line] of lines.entries()) {
      const box = await screen.findByRole('checkbox', { name: `${line} ${scopes[i]}` }, { timeout: 3000 })
      expect(box).toBeTruthy()
    }
  })
})
