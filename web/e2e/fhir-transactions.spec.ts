import { expect, test, type Page } from '@playwright/test'
import { Client } from 'fhir-kit-client'
import { MedplumClient } from '@medplum/core'
import { PASSWORD, api, doctorId, login, unique } from './helpers'
import { port } from './ports'

// Transactions and batches of every writable type sent by the FHIR client libraries an
// integrator uses, through their own helpers (fhir-kit-client's transaction() and batch(),
// Medplum's executeBatch()), against the real server.

const origin = `http://127.0.0.1:${port}`
const base = `${origin}/fhir/R4`

type Resource = { resourceType: string; id: string; status?: string; subject?: { reference: string }; encounter?: { reference: string }; participant?: { actor?: { reference: string } }[] }
type Answer = { type: string; entry: { resource?: Resource; response: { status: string; location?: string; etag?: string; outcome?: unknown } }[] }
type Entry = { fullUrl?: string; resource: Record<string, unknown>; request: { method: string; url: string } }

/** An API token for the E2E doctor, made by the administrator: the doctor registers, books, measures and starts visits. */
async function doctorToken(admin: Page) {
  const doctor = await doctorId(admin)
  const r = await api(admin, 'post', '/api/api-tokens', { user_id: doctor, name: `Transactions ${unique()}`, scopes: '', expires_in_days: 1, current_password: PASSWORD })
  expect(r.status()).toBe(201)
  return { token: ((await r.json()) as { token: string }).token, doctor }
}

/** A time no other test books the doctor at: a random quarter hour of a day a year or so ahead. */
function freeTime() {
  const t = new Date()
  t.setUTCDate(t.getUTCDate() + 300 + Math.floor(Math.random() * 300))
  t.setUTCHours(Math.floor(Math.random() * 20), 15 * Math.floor(Math.random() * 4), 0, 0)
  return t
}

const urn = () => `urn:uuid:${crypto.randomUUID()}`

/**
 * A walk-in visit written whole: its two vital signs first (they reference the visit and the
 * patient written after them in the Bundle), the visit, a follow-up booked a day later, the patient.
 */
function walkInVisit(family: string, doctor: number) {
  const patient = urn()
  const visit = urn()
  const start = freeTime()
  const vital = (loinc: string, value: number, unit: string) => ({
    resourceType: 'Observation', status: 'final',
    category: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'vital-signs' }] }],
    code: { coding: [{ system: 'http://loinc.org', code: loinc }] }, subject: { reference: patient }, encounter: { reference: visit },
    effectiveDateTime: start.toISOString(), valueQuantity: { value, unit, system: 'http://unitsofmeasure.org', code: unit },
  })
  const followUp = new Date(start.getTime() + 24 * 3600_000)
  const entry: Entry[] = [
    { resource: vital('8867-4', 84, '/min'), request: { method: 'POST', url: 'Observation' } },
    { resource: vital('29463-7', 71.5, 'kg'), request: { method: 'POST', url: 'Observation' } },
    { fullUrl: visit, request: { method: 'POST', url: 'Encounter' }, resource: {
      resourceType: 'Encounter', status: 'in-progress', class: { system: 'http://terminology.hl7.org/CodeSystem/v3-ActCode', code: 'AMB' },
      subject: { reference: patient }, participant: [{ individual: { reference: `Practitioner/${doctor}` } }],
      period: { start: start.toISOString(), end: new Date(start.getTime() + 15 * 60_000).toISOString() }, reasonCode: [{ text: 'cough' }] } },
    { request: { method: 'POST', url: 'Appointment' }, resource: {
      resourceType: 'Appointment', status: 'booked', start: followUp.toISOString(), minutesDuration: 15, appointmentType: { text: 'follow-up' },
      participant: [{ actor: { reference: patient }, status: 'accepted' }, { actor: { reference: `Practitioner/${doctor}` }, status: 'accepted' }] } },
    { fullUrl: patient, request: { method: 'POST', url: 'Patient' }, resource: {
      resourceType: 'Patient', name: [{ family, given: ['Lan'] }], gender: 'female', birthDate: '1990-04-05' } },
  ]
  return { resourceType: 'Bundle', type: 'transaction', entry }
}

/** The entries' resources by type, checked written (201) and linked to one another. */
async function expectLinked(answer: Answer, read: (type: string, id: string) => Promise<Resource>) {
  expect(answer.type).toBe('transaction-response')
  expect(answer.entry.map((e) => e.response.status)).toEqual(['201 Created', '201 Created', '201 Created', '201 Created', '201 Created'])
  const [hr, weight, visit, followUp, patient] = answer.entry.map((e) => e.resource!)
  for (const e of answer.entry) expect(e.response.location).toMatch(new RegExp(`/${e.resource!.resourceType}/${e.resource!.id}/_history/\\d+$`))
  const pid = `Patient/${patient.id}`
  for (const o of [hr, weight]) {
    const back = await read('Observation', o.id)
    expect(back.subject?.reference).toBe(pid)
    expect(back.encounter?.reference).toBe(`Encounter/${visit.id}`)
  }
  const encounter = await read('Encounter', visit.id)
  expect(encounter.status).toBe('in-progress')
  expect(encounter.subject?.reference).toBe(pid)
  const appointment = await read('Appointment', followUp.id)
  expect(appointment.participant?.map((p) => p.actor?.reference)).toContain(pid)
  return patient
}

test("fhir-kit-client's transaction() writes a walk-in visit whole, and one failing entry leaves nothing", async ({ page }) => {
  await login(page, 'admin')
  const { token, doctor } = await doctorToken(page)
  const client = new Client({ baseUrl: base, customHeaders: { Authorization: `Bearer ${token}` } })

  const family = `Tx${unique()}`
  const answer = (await client.transaction({ body: walkInVisit(family, doctor) })) as Answer
  const patient = await expectLinked(answer, async (resourceType, id) => (await client.read({ resourceType, id })) as Resource)
  expect(patient.id).toBeTruthy()

  // One entry refused (the appointment names no doctor of the clinic): nothing of the others remains.
  const gone = `Gone${unique()}`
  const failing = walkInVisit(gone, doctor)
  const booking = failing.entry[3].resource as { participant: { actor: { reference: string } }[] }
  booking.participant[1].actor.reference = 'Practitioner/999999'
  const refused = await client.transaction({ body: failing }).then(
    () => null,
    (e: { response?: { status: number; data?: { resourceType: string; issue: { expression?: string[] }[] } } }) => e.response,
  )
  expect(refused?.status).toBe(400)
  expect(refused?.data?.resourceType).toBe('OperationOutcome')
  expect(JSON.stringify(refused?.data?.issue)).toContain('Bundle.entry[3]')
  const found = (await client.search({ resourceType: 'Patient', searchParams: { family: gone } })) as { entry?: unknown[] }
  expect(found.entry ?? []).toHaveLength(0)

  // A batch: each entry on its own — the good one written, the bad one answered with its outcome.
  const batch = (await client.batch({ body: { resourceType: 'Bundle', type: 'batch', entry: [
    { request: { method: 'POST', url: 'Patient' }, resource: { resourceType: 'Patient', name: [{ family: `Kit${unique()}`, given: ['An'] }], gender: 'male', birthDate: '1979-01-02' } },
    { request: { method: 'POST', url: 'Patient' }, resource: { resourceType: 'Patient', name: [{ family: 'Bad', given: ['Gender'] }], gender: 'mail' } },
  ] } })) as Answer
  expect(batch.type).toBe('batch-response')
  expect(batch.entry.map((e) => e.response.status)).toEqual(['201 Created', '400 Bad Request'])
  expect(batch.entry[1].response.outcome).toBeTruthy()
})

/** A time in the past no other test books the doctor at: a random quarter hour of a day a year or so ago. */
function pastTime() {
  const t = freeTime()
  t.setUTCFullYear(new Date().getUTCFullYear() - 2)
  return t
}

test("fhir-kit-client's transaction() records a finished visit with its vitals, on its own day", async ({ page }) => {
  await login(page, 'admin')
  const { token, doctor } = await doctorToken(page)
  const client = new Client({ baseUrl: base, customHeaders: { Authorization: `Bearer ${token}` } })

  // A visit another system reports after it happened: finished, twenty minutes long, its vitals by urn:uuid.
  const body = walkInVisit(`Past${unique()}`, doctor)
  const start = pastTime()
  const visit = body.entry[2].resource as { status: string; period: { start: string; end: string } }
  visit.status = 'finished'
  visit.period = { start: start.toISOString(), end: new Date(start.getTime() + 20 * 60_000).toISOString() }
  body.entry.splice(3, 1) // no follow-up: the day is over
  // Its vitals were measured at it, on its day (a vital dated another day is refused).
  for (const e of body.entry.slice(0, 2)) (e.resource as { effectiveDateTime: string }).effectiveDateTime = new Date(start.getTime() + 5 * 60_000).toISOString()
  const answer = (await client.transaction({ body })) as Answer
  expect(answer.entry.map((e) => e.response.status)).toEqual(['201 Created', '201 Created', '201 Created', '201 Created'])
  const id = answer.entry[2].resource!.id
  const encounter = (await client.read({ resourceType: 'Encounter', id })) as Resource & { period: { start: string; end?: string } }
  expect(encounter.status).toBe('finished')
  expect(new Date(encounter.period.start).getTime()).toBe(start.getTime())
  expect(new Date(encounter.period.end!).getTime()).toBe(start.getTime() + 20 * 60_000)
  const heartRate = (await client.read({ resourceType: 'Observation', id: `${id}-hr` })) as unknown as { valueQuantity: { value: number }; encounter: { reference: string } }
  expect(heartRate.valueQuantity.value).toBe(84)
  expect(heartRate.encounter.reference).toBe(`Encounter/${id}`)

  // Still to begin: refused (422) with its OperationOutcome, and nothing of the transaction remains.
  const family = `Soon${unique()}`
  const soon = walkInVisit(family, doctor)
  const later = soon.entry[2].resource as { status: string }
  later.status = 'finished'
  soon.entry.splice(3, 1)
  const refused = await client.transaction({ body: soon }).then(
    () => null,
    (e: { response?: { status: number; data?: { resourceType: string; issue: { code: string; expression?: string[] }[] } } }) => e.response,
  )
  expect(refused?.status).toBe(422)
  expect(refused?.data?.issue[0].expression).toEqual(['Bundle.entry[2]', 'Encounter.period.start'])
  const found = (await client.search({ resourceType: 'Patient', searchParams: { family } })) as { entry?: unknown[] }
  expect(found.entry ?? []).toHaveLength(0)
})

test("Medplum's executeBatch() runs a transaction and a batch whose failing entry fails alone", async ({ page }) => {
  await login(page, 'admin')
  const { token, doctor } = await doctorToken(page)
  const medplum = new MedplumClient({ baseUrl: `${origin}/`, fhirUrlPath: 'fhir/R4', defaultHeaders: { Authorization: `Bearer ${token}` }, fetch })

  const family = `Mp${unique()}`
  const answer = (await medplum.executeBatch(walkInVisit(family, doctor) as never)) as unknown as Answer
  const patient = await expectLinked(answer, async (type, id) => (await medplum.readResource(type as 'Patient', id, { cache: 'no-cache' })) as unknown as Resource)

  // A batch: a vital sign of the new visit and a booking succeed; a vital sign of a visit that
  // does not exist fails, alone, with its outcome.
  const visit = answer.entry[2].resource!.id
  const later = freeTime()
  const batch = (await medplum.executeBatch({ resourceType: 'Bundle', type: 'batch', entry: [
    { request: { method: 'POST', url: 'Observation' }, resource: {
      resourceType: 'Observation', status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '8310-5' }] },
      subject: { reference: `Patient/${patient.id}` }, encounter: { reference: `Encounter/${visit}` },
      valueQuantity: { value: 37.2, unit: 'Cel', system: 'http://unitsofmeasure.org', code: 'Cel' } } },
    { request: { method: 'POST', url: 'Observation' }, resource: {
      resourceType: 'Observation', status: 'final', code: { coding: [{ system: 'http://loinc.org', code: '8310-5' }] },
      subject: { reference: `Patient/${patient.id}` }, encounter: { reference: 'Encounter/999999' },
      valueQuantity: { value: 37.2, unit: 'Cel', system: 'http://unitsofmeasure.org', code: 'Cel' } } },
    { request: { method: 'POST', url: 'Appointment' }, resource: {
      resourceType: 'Appointment', status: 'booked', start: later.toISOString(), minutesDuration: 15, appointmentType: { text: 'follow-up' },
      participant: [{ actor: { reference: `Patient/${patient.id}` }, status: 'accepted' }, { actor: { reference: `Practitioner/${doctor}` }, status: 'accepted' }] } },
  ] } as never)) as unknown as Answer
  expect(batch.type).toBe('batch-response')
  expect(batch.entry.map((e) => e.response.status)).toEqual(['201 Created', '400 Bad Request', '201 Created'])
  const temperature = await medplum.readResource('Observation', `${visit}-temp`, { cache: 'no-cache' })
  expect((temperature as { valueQuantity?: { value: number } }).valueQuantity?.value).toBe(37.2)
})
