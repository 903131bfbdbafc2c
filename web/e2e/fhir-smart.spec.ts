import { expect, test } from '@playwright/test'
import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createRequire } from 'node:module'
import { api, chooseMenuItem, authenticate, newPatient, unique } from './helpers'
import { appPort, port } from './ports'

// A SMART app served from another origin (the server is started with --cors-origin for it, in
// e2e/serve.sh): a launch page that asks for authorization and an app page that reads the
// patient in context, both through fhirclient's browser build, as a real app would.
const appOrigin = `http://localhost:${appPort}`
const fhirClientJS = readFileSync(createRequire(import.meta.url).resolve('fhirclient/build/fhir-client.js'))

let clientId = ''
let server: Server

const page = (body: string) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Growth chart</title><script src="/fhir-client.js"></script></head><body>${body}</body></html>`

const launchPage = () =>
  page(`<p>Launching…</p><script>
FHIR.oauth2.authorize({ clientId: ${JSON.stringify(clientId)}, redirectUri: "index.html",
  scope: "launch openid fhirUser online_access patient/Patient.rs patient/Observation.rs" })
</script>`)

const appPage = page(`<h1>Growth chart</h1><p id="patient"></p><p id="observations"></p><p id="user"></p><p id="refreshed"></p><p id="other"></p><p id="error"></p>
<script>
const show = (id, text) => { document.getElementById(id).textContent = text }
FHIR.oauth2.ready().then(async (client) => {
  const p = await client.patient.read()
  show("patient", "Patient: " + p.name[0].family + " " + p.name[0].given.join(" "))
  const found = await client.request("Observation?patient=" + client.patient.id + "&category=vital-signs")
  show("observations", "Observation search: " + found.resourceType + ", " + (found.entry || []).length + " entries")
  show("user", "User: " + client.getFhirUser())
  await client.refresh()
  const again = await client.request("Patient/" + client.patient.id)
  show("refreshed", "Refreshed: " + again.id)
  const other = await client.request("Patient?_id=" + (Number(client.patient.id) + 1)).then(() => "answered", (e) => "refused " + e.status)
  show("other", "Another patient: " + other)
}).catch((e) => show("error", "Error: " + e))
</script>`)

test.beforeAll(async () => {
  server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', appOrigin).pathname
    const [type, body] =
      path === '/fhir-client.js' ? ['text/javascript', fhirClientJS] : path === '/launch.html' ? ['text/html', launchPage()] : path === '/index.html' ? ['text/html', appPage] : []
    res.writeHead(body ? 200 : 404, { 'Content-Type': type ?? 'text/plain' })
    res.end(body ?? 'not found')
  })
  await new Promise<void>((resolve) => server.listen(appPort, 'localhost', resolve))
})

test.afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

// An administrator registers the app on the API access screen; a doctor opens a patient's
// chart, launches the app, approves what it asks on the consent page, and the app (in its own
// origin, through CORS) reads that patient and an Observation search, refreshes its token, and
// is refused another patient.
test('a SMART app launched from the chart reads the patient in context through fhirclient', async ({ browser }) => {
  const adminContext = await browser.newContext()
  const admin = await adminContext.newPage()
  await authenticate(admin, 'admin')
  // Discovery and the app's tokens name the server by the clinic's public address alone.
  const clinic = (await (await api(admin, 'get', '/api/settings/clinic')).json()) as { name: string; public_url: string; version: number }
  const setPublic = async (publicUrl: string, version: number) => {
    const saved = await api(admin, 'put', '/api/settings/clinic', { ...clinic, name: clinic.name || 'E2E clinic', public_url: publicUrl, version })
    expect(saved.status()).toBe(200)
    return ((await saved.json()) as { version: number }).version
  }
  const version = await setPublic(`http://127.0.0.1:${port}`, clinic.version)
  await admin.goto('/administrator/api-access')
  await admin.getByRole('button', { name: 'Register an app' }).click()
  const dialog = admin.getByRole('dialog', { name: 'Register an app' })
  const name = `Growth chart ${unique()}`
  await dialog.getByLabel('Name').fill(name)
  await dialog.getByLabel('Launch address').fill(`${appOrigin}/launch.html`)
  await dialog.getByLabel('Redirect addresses').fill(`${appOrigin}/index.html`)
  await dialog.getByLabel('Scopes').fill('patient/*.rs user/Patient.rs')
  await dialog.getByRole('button', { name: 'Register' }).click()
  const row = admin.getByRole('row', { name: new RegExp(name) })
  await expect(row).toContainText('emr-app-')
  clientId = (await row.locator('code').first().innerText()).trim()

  const context = await browser.newContext()
  const doctor = await context.newPage()
  await authenticate(doctor, 'doctor')
  const family = `Smart${unique()}`
  const patient = await newPatient(doctor, family)
  await doctor.goto(`/masterfile/profile/${patient.id}/${patient.mrn}`)
  await doctor.getByRole('button', { name: 'Apps' }).click()
  const opened = context.waitForEvent('page')
  await chooseMenuItem(doctor, name)
  const app = await opened

  // The consent page, in the doctor's session: the app, the patient, what it may do.
  await expect(app).toHaveURL(/\/smart\/authorize\?/)
  await expect(app.getByText(`Allow ${name} to open the record?`)).toBeVisible()
  await expect(app.getByTestId('consent-patient')).toContainText(family)
  await expect(app.getByText('Read this patient\'s measurements and results')).toBeVisible()
  await app.getByRole('button', { name: 'Allow' }).click()

  // Back in the app, on its own origin.
  await expect(app).toHaveURL(new RegExp(`^${appOrigin}/index.html`))
  await expect(app.locator('#error')).toHaveText('')
  await expect(app.locator('#patient')).toHaveText(`Patient: ${family} Minh`)
  await expect(app.locator('#observations')).toHaveText('Observation search: Bundle, 0 entries')
  await expect(app.locator('#user')).toHaveText(/^User: .*Practitioner\/\d+$/)
  await expect(app.locator('#refreshed')).toHaveText(`Refreshed: ${patient.id}`)
  await expect(app.locator('#other')).toHaveText('Another patient: refused 403')
  await context.close()
  await setPublic(clinic.public_url, version) // as the other tests found it
  await adminContext.close()
})
