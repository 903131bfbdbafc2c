// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { Patient } from './api/types'
import PatientChartPage from './PatientChartPage'

afterEach(cleanup)

const patient: Patient = {
  id: 9, mrn: '2026-000009', version: 2, archived: false, has_photo: false, created_at: '2026-01-02T03:04:05Z', updated_at: '2026-01-02T03:04:05Z',
  first_name: 'Lan', middle_name: '', last_name: 'Trần', sex: 'female', birth_date: '1950-06-15', birth_date_estimated: false,
  address: '12 Lê Lợi, Huế', phone: '+84 90 000 0000', email: '', occupation: '', referred_by: '', remarks: '', civil_status: '', blood_type: 'O+', gestation_weeks: null,
  emergency_contact: { name: '', phone: '', relation: '' },
  reminders: 'none',
  message_language: '',
  history: {
    allergy_status: 'present', allergies: [{ substance: 'Penicillin', reaction: 'hives', severity: 'severe' }],
    chronic: ['hypertension'], chronic_other: '', family: [], family_other: '', past_admissions: '', past_surgeries: '',
    smoking: 'never', alcohol: 'never', social_other: '', vaccinations: '',
  },
}

const api = (p: Patient = patient, files: unknown[] = []) => ({
  'GET /patients/9': p,
  'GET /patients/9/files': { data: files },
  'GET /appointments': { data: [], meta: { total: 0, page: 1, per_page: 10 } },
})

const at = (mrn = patient.mrn) => ({ route: '/masterfile/patients/:id/:pid', at: `/masterfile/patients/9/${mrn}` })

describe('PatientChartPage', () => {
  it('shows the patient with a severe allergy in the banner', async () => {
    await renderScreen(<PatientChartPage />, { me: user(['view patient']), api: api(), ...at() })
    await waitFor(() => expect(document.body.textContent).toContain('Penicillin'))
    expect(document.body.textContent).toContain('Trần')
    expect(document.body.textContent).toContain('2026-000009')
  })

  it('answers not found when the patient number in the address is another patient\'s', async () => {
    await renderScreen(<PatientChartPage />, { me: user(['view patient']), api: api(), ...at('2026-000010') })
    expect((await screen.findByTestId('patient-not-found')).textContent).toContain('This patient does not exist, or the link is wrong.')
    expect(document.body.textContent).not.toContain('Penicillin')
  })

  it('offers editing and archiving only to one who manages patients', async () => {
    await renderScreen(<PatientChartPage />, { me: user(['view patient']), api: api(), ...at() })
    await waitFor(() => expect(document.body.textContent).toContain('Penicillin'))
    expect(screen.queryByRole('button', { name: /edit/i })).toBeNull()
    cleanup()
    await renderScreen(<PatientChartPage />, { me: user(['view patient', 'manage patient']), api: api(), ...at() })
    expect(await screen.findByRole('button', { name: /edit/i })).toBeTruthy()
    expect(screen.getByRole('button', { name: /archive/i })).toBeTruthy()
  })

  it('says an archived record was archived and why', async () => {
    await renderScreen(<PatientChartPage />, { me: user(['view patient', 'manage patient']), api: api({ ...patient, archived: true, archive_reason: 'registered twice' }), ...at() })
    await waitFor(() => expect(document.body.textContent).toContain('registered twice'))
    expect(screen.getByRole('button', { name: /restore/i })).toBeTruthy()
  })

  it('marks a lab report refiled from another patient\'s record and offers no way to delete it', async () => {
    const refiled = { id: 5, patient_id: 9, kind: 'attachment', name: 'lab-report-5.pdf', content_type: 'application/pdf', size: 10,
      created_at: '2026-01-02T03:04:05Z', other_patient: false, refiled: true }
    await renderScreen(<PatientChartPage />, { me: user(['view patient', 'manage patient']), api: api(patient, [refiled]), ...at() })
    expect((await screen.findByTestId('file-refiled')).textContent).toContain('Refiled from another patient\'s record')
    expect(screen.queryByRole('button', { name: /delete.*lab-report-5/i })).toBeNull()
  })

  it('asks before deleting a file, deletes it on OK and gives focus back to its button', async () => {
    const file = { id: 6, patient_id: 9, kind: 'attachment', name: 'x-ray.png', content_type: 'image/png', size: 2048,
      created_at: '2026-01-02T03:04:05Z', other_patient: false, refiled: false }
    const view = await renderScreen(<PatientChartPage />, { me: user(['view patient', 'manage patient']), api: { ...api(patient, [file]), 'DELETE /patients/9/files/6': null }, ...at() })
    const del = await screen.findByRole('button', { name: 'Delete x-ray.png' })
    del.focus()
    fireEvent.click(del)
    const ask = screen.getByRole('alertdialog', { name: 'Delete this file?' })
    expect(document.activeElement).toBe(within(ask).getByRole('button', { name: 'Cancel' }))
    fireEvent.click(within(ask).getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(view.sent).toEqual([])
    fireEvent.click(del)
    fireEvent.click(within(screen.getByRole('alertdialog')).getByRole('button', { name: 'Delete' }))
    await waitFor(() => expect(view.sent).toEqual([{ method: 'DELETE', path: '/patients/9/files/6', body: undefined }]))
  })

  it('uploads a file chosen through its button, which the keyboard reaches', async () => {
    const view = await renderScreen(<PatientChartPage />, { me: user(['view patient', 'manage patient']), api: { ...api(), 'POST /patients/9/files': { id: 7 } }, ...at() })
    const button = await screen.findByRole('button', { name: 'Upload file' })
    const input = document.querySelector<HTMLInputElement>('input[type=file][accept^="image/*"]')!
    expect(input.tabIndex).toBe(-1)
    let opened = false
    input.addEventListener('click', () => (opened = true))
    fireEvent.click(button)
    expect(opened).toBe(true)
    fireEvent.change(input, { target: { files: [new File(['%PDF'], 'letter.pdf', { type: 'application/pdf' })] } })
    await waitFor(() => expect(view.sent.map((r) => `${r.method} ${r.path}`)).toEqual(['POST /patients/9/files']))
  })
})
