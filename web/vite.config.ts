import react from '@vitejs/plugin-react'
import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'

// The component library's style sheet, compiled ahead of time (docs/adr/0036-component-styles-compiled-ahead.md):
// its rules read every colour and size from CSS variables, which the app's ConfigProvider
// writes at run time from the clinic's theme. The sheet also carries the variables' values
// for the default theme, under keys (css-var-_R_…) that only server rendering gives, so no
// element of this app ever matches them, and the run-time cache's path map, which only the
// run-time styling reads: both are dropped (about 80 KB, 13 KB compressed).
function antdStaticCss(): Plugin {
  return {
    name: 'emr-antd-static-css',
    enforce: 'pre',
    transform(code, id) {
      if (!/antd\/dist\/antd\.css$/.test(id)) return null
      // Each innermost rule: its selectors that name such a key go; a rule left without one goes.
      const out = code.replace(/([^{}]+)\{([^{}]*)\}/g, (_rule, selectors: string, body: string) => {
        const kept = selectors.split(',').filter((s) => !s.includes('.css-var-_R_') && !s.includes('.data-ant-cssinjs-cache-path'))
        return kept.length === 0 ? '' : `${kept.join(',')}{${body}}`
      })
      if (out.includes('css-var-_R_') || out.length > code.length - 50_000) throw new Error('antd.css: its layout changed; review antdStaticCss')
      return { code: out, map: null }
    },
  }
}

// The build lands in dist/app, which the Go binary embeds (web/embed.go).
export default defineConfig({
  plugins: [react(), antdStaticCss()],
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
