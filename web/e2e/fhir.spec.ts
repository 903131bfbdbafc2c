import { expect, test } from '@playwright/test'
import { generateKeyPairSync, sign } from 'node:crypto'
import { Client } from 'fhir-kit-client'
import { PASSWORD, api, authenticate, newPatient, unique } from './helpers'
import { port } from './ports'

const base = `http://127.0.0.1:${port}/fhir/R4`

interface Bundle {
  resourceType: string
  entry?: { fullUrl: string; resource: { resourceType: string; id: string; identifier?: { value: string }[]; name?: { family: string }[] } }[]
  link?: { relation: string; url: string }[]
}

// An administrator makes an API token on Administrator → API access; a real FHIR client
// library reads the clinic's patients with it; revoked on the same screen, it is refused.
test('an API token made on the API access screen reads patients through a FHIR client, until revoked', async ({ page }) => {
  await authenticate(page, 'admin')
  const family = `Fhir${unique()}`
  const patient = await newPatient(page, family)

  await page.goto('/administrator/api-access')
  await page.getByRole('button', { name: 'New token' }).click()
  const dialog = page.getByRole('dialog', { name: 'New token' })
  await dialog.getByLabel('Account').click()
  await dialog.getByLabel('Account').fill('E2E doctor')
  await page.locator('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option', { hasText: 'E2E doctor' }).click()
  const name = `Lab link ${unique()}`
  await dialog.getByLabel('Name').fill(name)
  // Making a token is a sensitive act: the administrator's own password again.
  await dialog.getByLabel('Your password').fill(PASSWORD)
  await dialog.getByRole('button', { name: 'Create token' }).click()

  const shown = page.getByTestId('new-token')
  await expect(shown).toContainText('emr_pat_')
  const token = (await shown.innerText()).trim()
  await page.getByRole('button', { name: 'I have copied it' }).click()
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('Valid')

  const client = new Client({ baseUrl: base, customHeaders: { Authorization: `Bearer ${token}` } })
  const capability = (await client.capabilityStatement()) as { fhirVersion: string }
  expect(capability.fhirVersion).toBe('4.0.1')
  const found = (await client.search({ resourceType: 'Patient', searchParams: { family, _count: '5' } })) as Bundle
  expect(found.resourceType).toBe('Bundle')
  expect(found.entry?.map((e) => e.resource.id)).toEqual([String(patient.id)])
  expect(found.entry?.[0].resource.identifier?.[0].value).toBe(patient.mrn)
  expect(found.entry?.[0].fullUrl).toBe(`${base}/Patient/${patient.id}`)
  const read = (await client.read({ resourceType: 'Patient', id: String(patient.id) })) as { name: { family: string }[] }
  expect(read.name[0].family).toBe(family)
  // Its versions, as kept when each was written.
  const history = (await client.history({ resourceType: 'Patient', id: String(patient.id) })) as { type: string; entry: unknown[] }
  expect(history.type).toBe('history')
  expect(history.entry.length).toBeGreaterThan(0)
  const first = (await client.vread({ resourceType: 'Patient', id: String(patient.id), version: '1' })) as { meta: { versionId: string } }
  expect(first.meta.versionId).toBe('1')

  // The list shows the use; revoking it refuses the client at once.
  await page.reload()
  const row = page.getByRole('row', { name: new RegExp(name) })
  await expect(row).toContainText('127.0.0.1')
  await row.getByRole('button', { name: `Revoke ${name}` }).click()
  await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click()
  await expect(row).toContainText('Revoked')
  const refused = await client.read({ resourceType: 'Patient', id: String(patient.id) }).then(
    () => null,
    (e: { response?: { status: number; data?: { resourceType: string } } }) => e.response,
  )
  expect(refused?.status).toBe(401)
  expect(refused?.data?.resourceType).toBe('OperationOutcome')
})

// A backend client registered on the same screen with its public key gets an access token
// with a signed assertion (SMART Backend Services) and reads patients through a FHIR client.
test('a backend client registered on the API access screen reads patients with SMART Backend Services', async ({ page, request }) => {
  await authenticate(page, 'admin')
  const family = `System${unique()}`
  const patient = await newPatient(page, family)
  const { publicKey, privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-384' })
  const kid = `registry-${unique()}`
  const jwks = JSON.stringify({ keys: [{ ...publicKey.export({ format: 'jwk' }), kid, alg: 'ES384', use: 'sig' }] })

  await page.goto('/administrator/api-access')
  await page.getByRole('button', { name: 'Register client' }).click()
  const dialog = page.getByRole('dialog', { name: 'Register client' })
  const name = `Registry ${unique()}`
  await dialog.getByLabel('Name').fill(name)
  await dialog.getByLabel('Scopes').fill('system/Patient.rs')
  await dialog.getByLabel('Public keys (JWK Set)').fill(jwks)
  await dialog.getByRole('button', { name: 'Register', exact: true }).click()
  const row = page.getByRole('row', { name: new RegExp(name) })
  await expect(row).toContainText(kid)
  const clientId = (await row.locator('code').first().innerText()).trim()

  // The token endpoint checks each assertion's aud against the clinic's public address:
  // until one is set, the screen says no client gets a token, and none does.
  const clinic = (await (await api(page, 'get', '/api/settings/clinic')).json()) as { name: string; public_url: string; version: number }
  const setPublic = async (publicUrl: string, version: number) => {
    const saved = await api(page, 'put', '/api/settings/clinic', { ...clinic, name: clinic.name || 'E2E clinic', public_url: publicUrl, version })
    expect(saved.status()).toBe(200)
    return ((await saved.json()) as { version: number }).version
  }
  let version = clinic.version
  if (clinic.public_url) version = await setPublic('', version)
  await page.reload()
  await expect(page.getByTestId('no-public-address')).toBeVisible()
  version = await setPublic(`http://127.0.0.1:${port}`, version)
  await page.reload()
  await expect(page.getByRole('row', { name: new RegExp(name) })).toBeVisible()
  await expect(page.getByTestId('no-public-address')).toHaveCount(0)

  const config = (await (await request.get(`${base}/.well-known/smart-configuration`)).json()) as { token_endpoint: string }
  const b64 = (v: object | Buffer) => Buffer.from(Buffer.isBuffer(v) ? v : JSON.stringify(v)).toString('base64url')
  const now = Math.floor(Date.now() / 1000)
  const head = `${b64({ alg: 'ES384', kid, typ: 'JWT' })}.${b64({ iss: clientId, sub: clientId, aud: config.token_endpoint, exp: now + 240, jti: unique() })}`
  const assertion = `${head}.${b64(sign('sha384', Buffer.from(head), { key: privateKey, dsaEncoding: 'ieee-p1363' }))}`
  const granted = await request.post(config.token_endpoint, {
    form: { grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion, scope: 'system/Patient.rs' },
  })
  expect(granted.status()).toBe(200)
  const { access_token } = (await granted.json()) as { access_token: string }

  const client = new Client({ baseUrl: base, bearerToken: access_token })
  const found = (await client.search({ resourceType: 'Patient', searchParams: { family } })) as Bundle
  expect(found.entry?.map((e) => e.resource.id)).toEqual([String(patient.id)])
  // Its scope is patients only; the same assertion a second time is a replay.
  const refused = await client.search({ resourceType: 'Observation', searchParams: { patient: String(patient.id) } }).then(
    () => null,
    (e: { response?: { status: number } }) => e.response?.status,
  )
  expect(refused).toBe(403)
  const replay = await request.post(config.token_endpoint, {
    form: { grant_type: 'client_credentials', client_assertion_type: 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer', client_assertion: assertion },
  })
  expect(replay.status()).toBe(401)
  await page.reload()
  await expect(page.getByRole('row', { name: new RegExp(name) })).toContainText('127.0.0.1')
  await setPublic(clinic.public_url, version) // as the other tests found it
})

// An administrator loads a register from a CSV file: checked first (nothing written), then
// imported; the possible duplicate is left out and named.
test('the register is imported from a CSV file after a check', async ({ page }) => {
  await authenticate(page, 'admin')
  const family = `Import${unique()}`
  const dupLast = `Dup${unique()}`
  const existing = await newPatient(page, dupLast)
  const csv = [
    'first_name,last_name,sex,birth_date,allergies',
    `Lan,${family},female,1990-04-05,penicillin`,
    `Minh,${dupLast},male,1984-03-04,`,
    `Bad,${family},female,1990-02-30,`,
  ].join('\n')
  await page.goto('/administrator/import-patients')
  await page.locator('input[type=file]').setInputFiles({ name: 'register.csv', mimeType: 'text/csv', buffer: Buffer.from(csv) })
  await expect(page.getByTestId('import-file')).toHaveText('register.csv')
  await page.getByRole('button', { name: 'Check the file' }).click()
  await expect(page.getByText('Checked — to register: 1, possible duplicates left out: 1, refused: 1.')).toBeVisible()
  await expect(page.getByRole('row', { name: /Bad/ })).toContainText('Refused')
  await expect(page.getByRole('row', { name: new RegExp(`Minh`) })).toContainText(existing.mrn)
  const before = await (await api(page, 'get', `/api/patients?q=${family}`)).json()
  expect(before.data).toHaveLength(0)
  await page.getByRole('button', { name: 'Import 1 patient' }).click()
  await expect(page.getByText('Imported — registered: 1, possible duplicates left out: 1, refused: 1.')).toBeVisible()
  const after = await (await api(page, 'get', `/api/patients?q=${family}`)).json()
  expect(after.data).toHaveLength(1)
})
