import { expect, test } from '@playwright/test'
import { Client } from 'fhir-kit-client'
import { PASSWORD, api, bookFirstFree, day, doctorId, newPatient, openCountingPrints, unique } from './helpers'
import { port } from './ports'

const base = `http://127.0.0.1:${port}/fhir/R4`
const usCore = (name: string) => `http://hl7.org/fhir/us/core/StructureDefinition/${name}|6.1.0`

interface Resource {
  resourceType: string
  id: string
  meta: { profile?: string[] }
  status: string
  result?: { reference: string }[]
  valueQuantity?: { value: number; unit: string; system?: string; code?: string }
}

// The doctor orders electrolytes, the nurse records them final; a FHIR client library finds
// the laboratory report by the US Core search (patient and category, with its system), reads
// each of its results, and sees each claim its US Core profile and its value coded in UCUM.
test('a laboratory report reaches a FHIR client as a US Core DiagnosticReport, its results coded in UCUM', async ({ browser }) => {
  const doc = await openCountingPrints(browser, 'doctor')
  const nurse = await openCountingPrints(browser, 'nurse')
  const admin = await openCountingPrints(browser, 'admin')
  const patient = await newPatient(doc, `Natrium ${unique()}`)
  const doctor = await doctorId(doc)
  const appt = await bookFirstFree(doc, patient.id, doctor, day(5), 9)
  expect((await api(doc, 'post', `/api/appointments/${appt}/arrive`, {})).status()).toBe(200)
  expect((await api(doc, 'post', `/api/appointments/${appt}/start`, {})).status()).toBe(200)
  expect((await api(doc, 'put', `/api/appointments/${appt}/visit`, { version: 0, chief_complaint: 'Cramps', orders: [{ code: 'ELEC' }] })).status()).toBe(200)
  const orders = (await (await api(nurse, 'get', `/api/appointments/${appt}/orders`)).json()) as { data: { id: number; version: number }[] }
  const order = orders.data[0]
  expect((await api(nurse, 'post', `/api/lab-orders/${order.id}/collect`, { version: order.version })).status()).toBe(200)
  const recorded = await api(nurse, 'put', `/api/lab-orders/${order.id}/results`, {
    version: order.version + 1,
    final: true,
    results: [
      { analyte: 'NA', value: '139', unit: 'mmol/L' },
      { analyte: 'K', value: '4.3', unit: 'mmol/L' },
      { analyte: 'CL', value: '101', unit: 'mmol/L' },
    ],
  })
  expect(recorded.status()).toBe(200)

  const made = await api(admin, 'post', '/api/api-tokens', { user_id: doctor, name: `Registry ${unique()}`, scopes: '', expires_in_days: 1, current_password: PASSWORD })
  expect(made.status()).toBe(201)
  const { token } = (await made.json()) as { token: string }
  const client = new Client({ baseUrl: base, customHeaders: { Authorization: `Bearer ${token}` } })

  const found = (await client.search({
    resourceType: 'DiagnosticReport',
    searchParams: { patient: String(patient.id), category: 'http://terminology.hl7.org/CodeSystem/v2-0074|LAB' },
  })) as { entry?: { resource: Resource }[] }
  expect(found.entry).toHaveLength(1)
  const report = found.entry![0].resource
  expect(report.id).toBe(String(order.id))
  expect(report.status).toBe('final')
  expect(report.meta.profile).toEqual([usCore('us-core-diagnosticreport-lab')])
  expect(report.result).toHaveLength(3)

  for (const { reference } of report.result!) {
    const [resourceType, id] = reference.split('/')
    const obs = (await client.read({ resourceType, id })) as Resource
    expect(obs.meta.profile).toEqual([usCore('us-core-observation-lab')])
    expect(obs.valueQuantity).toMatchObject({ system: 'http://unitsofmeasure.org', code: 'mmol/L', unit: 'mmol/L' })
  }

  const capability = (await client.capabilityStatement()) as { rest: { resource: { type: string; supportedProfile?: string[] }[] }[] }
  const reports = capability.rest[0].resource.find((r) => r.type === 'DiagnosticReport')
  // An imaging or functional study's report claims the note profile (issue 54's review).
  expect(reports?.supportedProfile).toEqual([usCore('us-core-diagnosticreport-lab'), usCore('us-core-diagnosticreport-note')])
})
