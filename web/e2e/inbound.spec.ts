import { expect, test } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { MedplumClient } from '@medplum/core'
import { PASSWORD, api, login, unique } from './helpers'
import { port } from './ports'

interface Coding { system?: string; code?: string; display?: string }
interface Patient {
  resourceType: 'Patient'
  id?: string
  meta?: { profile?: string[] }
  identifier?: { system?: string; value?: string; type?: { coding?: Coding[]; text?: string } }[]
  name?: { use?: string; family?: string; given?: string[]; prefix?: string[] }[]
  telecom?: { system?: string; value?: string; use?: string }[]
  address?: { line?: string[]; city?: string; extension?: unknown[] }[]
  communication?: { language: { coding?: Coding[]; text?: string }; preferred?: boolean }[]
  gender?: string
  birthDate?: string
}

// The Patient another system sends (internal/fhir/testdata): identifiers of three systems,
// two names, four contact points, two structured addresses, two languages, two profiles.
const sent = JSON.parse(readFileSync(new URL('../../internal/fhir/testdata/patient-from-another-system.json', import.meta.url), 'utf8')) as Patient

// Another system writes a rich Patient with Medplum's client; it reads back as sent, is found
// by its national number, and the chart lists its identifiers for the clinician.
test('a Patient sent by another system through Medplum comes back as sent, and its chart lists its identifiers', async ({ page }) => {
  await login(page, 'admin')
  const made = await api(page, 'post', '/api/profile/api-tokens', { name: `Inbound ${unique()}`, expires_in_days: 1, current_password: PASSWORD })
  expect(made.status()).toBe(201)
  const { token } = (await made.json()) as { token: string }

  const medplum = new MedplumClient({ baseUrl: `http://127.0.0.1:${port}/`, fhirUrlPath: 'fhir/R4', cacheTime: 0 })
  medplum.setAccessToken(token)

  // Unique per run: the register refuses a second person of the same name and phone, and a
  // number another patient has.
  const run = String(Math.floor(Math.random() * 9000) + 1000)
  const ssn = `999-${run.slice(0, 2)}-${run}`
  const patient: Patient = structuredClone(sent)
  patient.identifier = patient.identifier!.map((id) => (id.system === 'http://hl7.org/fhir/sid/us-ssn' ? { ...id, value: ssn } : { ...id, value: `${id.value}-${run}` }))
  patient.name![0].family = `Kuhlman${unique()}`
  patient.telecom![0].value = `555-718-${run}`

  const created = await medplum.createResource(patient)
  expect(created.id).toBeTruthy()
  const read = await medplum.readResource('Patient', created.id!)
  // The clinic's own number first, then the others as sent.
  expect(read.identifier?.slice(1)).toEqual(patient.identifier)
  expect(read.name).toEqual(patient.name)
  expect(read.telecom).toEqual(patient.telecom)
  expect(read.communication).toEqual(patient.communication)
  // Its own profiles are kept; US Core's is the server's claim, made on what it keeps.
  expect(read.meta?.profile).toEqual([
    ...(patient.meta?.profile ?? []).filter((p) => !p.startsWith('http://hl7.org/fhir/us/core/')),
    'http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient|6.1.0',
  ])
  // Structured addresses kept; the geolocation extension is not (dropped, with a warning).
  expect(read.address?.[0].line).toEqual(['742 Roob Knoll', 'Apt 12'])
  expect(read.address?.[0].extension).toBeUndefined()
  expect(read.address?.[1]).toEqual(patient.address?.[1])

  const found = await medplum.searchOne('Patient', { identifier: `http://hl7.org/fhir/sid/us-ssn|${ssn}` })
  expect(found?.id).toBe(created.id)

  // A second patient with the same national number is refused, naming it.
  const twin: Patient = { resourceType: 'Patient', name: [{ family: `Other${unique()}`, given: ['Anna'] }], gender: 'female', birthDate: '1990-01-01', identifier: [{ system: 'http://hl7.org/fhir/sid/us-ssn', value: ssn }] }
  await expect(medplum.createResource(twin)).rejects.toThrow(ssn)

  // The chart shows what came in.
  const mrn = read.identifier![0].value!
  await page.goto(`/masterfile/profile/${created.id}/${mrn}`)
  const card = page.getByTestId('other-identifiers')
  await expect(card).toContainText(ssn)
  await expect(card).toContainText('Social Security Number')
  await expect(card).toContainText('http://hl7.org/fhir/sid/us-ssn')
  // The address the clinic keeps is the first one's text.
  await expect(page.getByText('742 Roob Knoll, Apt 12, Boston, Suffolk County, MA, 02108, US')).toBeVisible()

  // Settings → Clinic shows the number system the server uses when none is set.
  await page.goto('/administrator/clinic')
  await expect(page.getByText('Patient number system (FHIR)')).toBeVisible()
})
