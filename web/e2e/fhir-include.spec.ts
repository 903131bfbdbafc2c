import { expect, test } from '@playwright/test'
import { Client } from 'fhir-kit-client'
import { PASSWORD, api, bookFirstFree, day, doctorId, login, newPatient, unique } from './helpers'
import { port } from './ports'

const base = `http://127.0.0.1:${port}/fhir/R4`

interface Entry {
  fullUrl?: string
  resource: { resourceType: string; id: string; issue?: { severity: string; code: string }[] }
  search?: { mode: string }
}
interface Bundle {
  resourceType: string
  entry?: Entry[]
  link?: { relation: string; url: string }[]
}

const byMode = (b: Bundle, mode: string) => (b.entry ?? []).filter((e) => e.search?.mode === mode).map((e) => `${e.resource.resourceType}/${e.resource.id}`)

// A FHIR client library asks for a page with the resources it points at (_include) and for a
// patient with the records pointing at it (_revinclude): each comes once, as an include
// entry; an include the server does not follow is a warning, or 400 under strict handling.
test('a FHIR client reads a page with its includes and a patient with its reverse includes', async ({ page }) => {
  await login(page, 'admin')
  const patient = await newPatient(page, `Include${unique()}`)
  const doctor = await doctorId(page)
  const first = await bookFirstFree(page, patient.id, doctor, day(5), 9)
  const second = await bookFirstFree(page, patient.id, doctor, day(6), 9)
  const made = await api(page, 'post', '/api/profile/api-tokens', { name: `Include ${unique()}`, scopes: '', expires_in_days: 1, current_password: PASSWORD })
  expect(made.status()).toBe(201)
  const { token } = (await made.json()) as { token: string }
  const client = new Client({ baseUrl: base, customHeaders: { Authorization: `Bearer ${token}` } })

  // Two appointments of one patient with one doctor: the patient and the doctor once each.
  const appointments = (await client.search({
    resourceType: 'Appointment',
    searchParams: { patient: String(patient.id), _include: 'Appointment:actor' },
  })) as Bundle
  expect(byMode(appointments, 'match').sort()).toEqual([`Appointment/${first}`, `Appointment/${second}`].sort())
  expect(byMode(appointments, 'include').sort()).toEqual([`Patient/${patient.id}`, `Practitioner/${doctor}`].sort())
  expect(appointments.link?.find((l) => l.relation === 'self')?.url).toContain('_include=Appointment%3Aactor')

  // The patient with its Encounters, and with :iterate their practitioner.
  const record = (await client.search({
    resourceType: 'Patient',
    searchParams: { _id: String(patient.id), _revinclude: 'Encounter:patient', '_include:iterate': 'Encounter:practitioner' },
  })) as Bundle
  expect(byMode(record, 'match')).toEqual([`Patient/${patient.id}`])
  expect(byMode(record, 'include').sort()).toEqual([`Encounter/${first}`, `Encounter/${second}`, `Practitioner/${doctor}`].sort())

  // An include the server does not follow: a warning, and under strict handling 400.
  const lenient = (await client.search({ resourceType: 'Appointment', searchParams: { patient: String(patient.id), _include: 'Appointment:location' } })) as Bundle
  expect(byMode(lenient, 'include')).toEqual([])
  const outcome = lenient.entry?.find((e) => e.search?.mode === 'outcome')?.resource
  expect(outcome?.issue?.[0]).toMatchObject({ severity: 'warning', code: 'not-supported' })
  const strict = await client
    .search({ resourceType: 'Appointment', searchParams: { patient: String(patient.id), _include: 'Appointment:location' }, options: { headers: { Prefer: 'handling=strict' } } })
    .then(
      () => null,
      (e: { response?: { status: number } }) => e.response,
    )
  expect(strict?.status).toBe(400)
})
