// The ports of the servers the end-to-end tests run against (playwright.config.ts). Each worker
// of a run has a server and a database of its own, so that no spec sees another's data: worker
// n (Playwright's TEST_PARALLEL_INDEX) answers on the run's base port plus 10n.
export const basePort = Number(process.env.EMR_E2E_PORT ?? 18181)
export const workerPort = (index: number) => basePort + 10 * index
export const port = workerPort(Number(process.env.TEST_PARALLEL_INDEX ?? 0))
// The clinic copied onto PostgreSQL (e2e/serve-copy.sh), when PostgreSQL is under test: one a run.
export const copyPort = basePort + 1
// A SMART app's own origin (fhir-smart.spec.ts), named to the worker's server with --cors-origin.
export const appPort = port + 5
