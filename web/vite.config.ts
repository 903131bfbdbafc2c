import react from '@vitejs/plugin-react'
import { defineConfig } from 'vitest/config'

// The build lands in dist/app, which the Go binary embeds (web/embed.go).
export default defineConfig({
  plugins: [react()],
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 1500,
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  test: {
    // Node: most tests are logic; a test that needs a DOM says so (// @vitest-environment jsdom),
    // which spares the others jsdom's start (it was two thirds of the run).
    environment: 'node',
    globals: true,
    setupFiles: ['src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    // A bound, not a wait: a screen rendered in jsdom (antd, the query cache, a dialog) takes
    // well under a second alone, but several seconds on a two-core machine that runs the Go
    // tests beside it; the default 5 s failed a bill's test there once.
    testTimeout: 30_000,
  },
})
