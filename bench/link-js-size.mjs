// Measures what a phone must load to show the page a patient's message links to (/m/TOKEN,
// ADR 42): link.html's entry chunk with everything it imports statically, and its style
// sheets, gzip-compressed.
// Usage: node bench/link-js-size.mjs [web/dist/app]  — prints JSON; exits 1 over budget.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

const BUDGET_KB = 80 // React DOM alone is about 63 KB of it
const dist = resolve(process.argv[2] ?? new URL('../web/dist/app', import.meta.url).pathname)
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'))
if (!manifest['link.html']?.isEntry) throw new Error('link.html is not an entry of the build')
const files = new Map()
const visit = (k) => {
  const chunk = manifest[k]
  if (!chunk || files.has(chunk.file)) return
  files.set(chunk.file, 'js')
  for (const f of chunk.css ?? []) files.set(f, 'css')
  for (const dep of chunk.imports ?? []) visit(dep)
}
visit('link.html')
const sizes = [...files].map(([file, kind]) => {
  const data = readFileSync(join(dist, file))
  return { file, kind, raw: data.length, gzip: gzipSync(data, { level: 9 }).length }
})
const sum = (kind, key) => sizes.filter((s) => s.kind === kind).reduce((n, s) => n + s[key], 0) / 1024
const total = sum('js', 'gzip') + sum('css', 'gzip')
const result = {
  link_js_gzip_kb: +sum('js', 'gzip').toFixed(1),
  link_css_gzip_kb: +sum('css', 'gzip').toFixed(1),
  link_total_gzip_kb: +total.toFixed(1),
  budget_kb: BUDGET_KB,
  files: sizes.map((s) => ({ file: s.file, gzip_kb: +(s.gzip / 1024).toFixed(1) })),
}
console.log(JSON.stringify(result, null, 2))
if (total > BUDGET_KB) process.exit(1)
