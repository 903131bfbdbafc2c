// The ports of the servers the end-to-end tests run against (playwright.config.ts).
export const port = Number(process.env.EMR_E2E_PORT ?? 18181)
// The clinic copied onto PostgreSQL (e2e/serve-copy.sh), when PostgreSQL is under test.
export const copyPort = port + 1
// A SMART app's own origin (fhir-smart.spec.ts), named to the server with --cors-origin.
export const appPort = port + 5
