import { defineConfig, devices } from '@playwright/test'
import { randomBytes } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { copyPort, port, workerPort } from './e2e/ports'

// End-to-end tests run the real emr binary on a fresh SQLite database in the system
// Chromium. The staff accounts' password is made per run and shared with the workers
// through the environment.
// (Never one holding the product's name, which the password policy refuses.)
const newPassword = (): string => {
  const pw = randomBytes(12).toString('base64url')
  return /emr/i.test(pw) ? newPassword() : pw
}
process.env.EMR_E2E_PASSWORD ??= newPassword()
// The clinic day's language, one per run rotating by the day (clinic-day.spec.ts), chosen once
// here: a worker loads the spec again when it reaches it, and a title that changed since the
// run began (its day turned at midnight) is a test the worker cannot find.
process.env.EMR_E2E_LANGUAGE ??= ['en', 'ru', 'zh', 'vi'][Math.floor(Date.now() / 86_400_000) % 4]

// Workers: each has its own server and database (e2e/ports.ts), so spec files run side by side
// without seeing each other's data. A worker is a browser and a server, about two cores' worth:
// on two cores a second one made every test two to three times slower and the whole run
// longer, not shorter, so a run takes half the machine's cores (EMR_E2E_WORKERS to choose).
const workers = Number(process.env.EMR_E2E_WORKERS ?? Math.max(1, Math.floor(availableParallelism() / 2)))
const screenshots = !!process.env.EMR_SCREENSHOTS
const bench = !!process.env.EMR_BENCH

export default defineConfig({
  testDir: 'e2e',
  // Screenshots are for people to look at (make screenshots), and the charting measurement
  // (bench/charting.sh) is a measurement: neither is part of the test run.
  testIgnore: [...(screenshots ? [] : ['**/screenshots.spec.ts']), ...(bench ? [] : ['**/charting-bench.spec.ts'])],
  outputDir: 'test-results/e2e',
  fullyParallel: false,
  workers,
  retries: 0,
  // Bounds, not waits: a passing test ends as soon as its conditions hold. They are wide
  // because on a busy two-core machine a page's first paint can take several seconds.
  timeout: 90_000,
  expect: { timeout: 20_000 },
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    // A trace records the page before and after every action: a tenth or more of a run's time,
    // for a file no one reads where the run is remote. Asked for when wanted (EMR_E2E_TRACE=1).
    trace: process.env.EMR_E2E_TRACE ? 'retain-on-failure' : 'off',
    // As a user who asked their system for less motion: no animation to wait out or to draw.
    reducedMotion: 'reduce',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
  },
  projects: [{ name: 'chromium', use: { ...devices['Desktop Chrome'] } }],
  webServer: [
    // One server a worker (the config is read by each worker too, where port is the worker's).
    ...Array.from({ length: workers }, (_, i) => ({
      command: `sh e2e/serve.sh ${workerPort(i)}`,
      url: `http://127.0.0.1:${workerPort(i)}/api/health`,
      reuseExistingServer: false,
      timeout: 90_000,
      stdout: 'ignore' as const,
    })),
    // With PostgreSQL under test, a seeded clinic copied onto it (copy.spec.ts).
    ...(process.env.EMR_TEST_POSTGRES_URL && !screenshots && !bench
      ? [{ command: `sh e2e/serve-copy.sh ${copyPort}`, url: `http://127.0.0.1:${copyPort}/api/health`, reuseExistingServer: false, timeout: 180_000, stdout: 'ignore' as const }]
      : []),
  ],
})
