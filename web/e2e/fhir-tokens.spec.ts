import { expect, test } from '@playwright/test'
import { Client } from 'fhir-kit-client'
import { PASSWORD, api, doctorId, login, unique } from './helpers'
import { port } from './ports'

const base = `http://127.0.0.1:${port}/fhir/R4`
const clinicalStatus = 'http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical'

interface Entry {
  resource: { resourceType: string; id: string; issue?: { severity: string; code: string; expression?: string[]; diagnostics: string }[] }
  search?: { mode: string }
}
interface Bundle {
  resourceType: string
  entry?: Entry[]
}

const matches = (b: Bundle) => (b.entry ?? []).filter((e) => e.search?.mode === 'match').map((e) => e.resource.id)
const issues = (b: Bundle) => (b.entry ?? []).filter((e) => e.search?.mode === 'outcome').flatMap((e) => e.resource.issue ?? [])

// A client library's token searches: the system and code a safety question is asked in finds
// the allergy; the same question in a system the server does not write there finds nothing,
// and the searchset says why rather than answer a bare "none"; unknown parameters are refused
// all at once under strict handling and named as ignored otherwise.
test('a FHIR client asks token questions with a system and is told when the system is not the server’s', async ({ page }) => {
  await login(page, 'admin')
  const family = `Token${unique()}`
  const created = await api(page, 'post', '/api/patients', {
    first_name: 'Lan', last_name: family, birth_date: '1980-05-06', sex: 'female',
    history: { allergy_status: 'present', allergies: [{ substance: 'penicillin', reaction: 'rash', severity: 'moderate' }] },
  })
  expect(created.status()).toBe(201)
  const patient = (await created.json()) as { id: number }
  const made = await api(page, 'post', '/api/api-tokens', {
    user_id: await doctorId(page), name: `Allergy check ${unique()}`, scopes: '', expires_in_days: 1, current_password: PASSWORD,
  })
  expect(made.status()).toBe(201)
  const { token } = (await made.json()) as { token: string }
  const client = new Client({ baseUrl: base, customHeaders: { Authorization: `Bearer ${token}` } })

  const active = (await client.search({
    resourceType: 'AllergyIntolerance', searchParams: { patient: String(patient.id), 'clinical-status': `${clinicalStatus}|active` },
  })) as Bundle
  expect(matches(active)).toEqual([`${patient.id}-1`])
  expect(issues(active)).toEqual([])

  const elsewhere = (await client.search({
    resourceType: 'AllergyIntolerance', searchParams: { patient: String(patient.id), 'clinical-status': 'http://snomed.info/sct|55561003' },
  })) as Bundle
  expect(matches(elsewhere)).toEqual([])
  expect(issues(elsewhere)).toEqual([expect.objectContaining({ severity: 'warning', code: 'code-invalid', expression: ['clinical-status'] })])

  // Unknown parameters: named as ignored, or, asked strictly, refused all at once.
  const lenient = (await client.search({ resourceType: 'Patient', searchParams: { family, colour: 'red', shade: 'blue' } })) as Bundle
  expect(matches(lenient)).toEqual([String(patient.id)])
  expect(issues(lenient).map((i) => i.expression)).toEqual([['colour'], ['shade']])
  const refused = await client
    .search({ resourceType: 'Patient', searchParams: { family, colour: 'red', shade: 'blue' }, options: { headers: { Prefer: 'handling=strict' } } })
    .then(
      () => null,
      (e: { response?: { status: number; data?: { issue: { expression: string[] }[] } } }) => e.response,
    )
  expect(refused?.status).toBe(400)
  expect(refused?.data?.issue.map((i) => i.expression)).toEqual([['colour'], ['shade']])
})
