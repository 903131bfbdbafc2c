// Measures what a phone must load to show one of the pages a patient opens, each its own entry
// of the build without the staff app's library: "link", the page a message links to (/m/TOKEN,
// ADR 42); "book", the public online booking page (/book, ADR 43); "portal", the patient portal
// (/portal, ADR 44). What counts: the page's entry chunk with everything it imports statically,
// and its style sheets, gzip-compressed.
// Usage: node bench/patient-page-size.mjs PAGE [web/dist/app] — prints JSON; exits 1 over budget.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

// Budgets in KB; React DOM alone is about 63 KB of each.
const BUDGETS_KB = { link: 80, book: 80, portal: 90 }
const page = process.argv[2]
const budget = BUDGETS_KB[page]
if (!budget) throw new Error(`the page is one of ${Object.keys(BUDGETS_KB).join(', ')}`)
const dist = resolve(process.argv[3] ?? new URL('../web/dist/app', import.meta.url).pathname)
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'))
const entry = `${page}.html`
if (!manifest[entry]?.isEntry) throw new Error(`${entry} is not an entry of the build`)
const files = new Map()
const visit = (k) => {
  const chunk = manifest[k]
  if (!chunk || files.has(chunk.file)) return
  files.set(chunk.file, 'js')
  for (const f of chunk.css ?? []) files.set(f, 'css')
  for (const dep of chunk.imports ?? []) visit(dep)
}
visit(entry)
const sizes = [...files].map(([file, kind]) => {
  const data = readFileSync(join(dist, file))
  return { file, kind, raw: data.length, gzip: gzipSync(data, { level: 9 }).length }
})
const sum = (kind, key) => sizes.filter((s) => s.kind === kind).reduce((n, s) => n + s[key], 0) / 1024
const total = sum('js', 'gzip') + sum('css', 'gzip')
const result = {
  [`${page}_js_gzip_kb`]: +sum('js', 'gzip').toFixed(1),
  [`${page}_css_gzip_kb`]: +sum('css', 'gzip').toFixed(1),
  [`${page}_total_gzip_kb`]: +total.toFixed(1),
  budget_kb: budget,
  files: sizes.map((s) => ({ file: s.file, gzip_kb: +(s.gzip / 1024).toFixed(1) })),
}
console.log(JSON.stringify(result, null, 2))
if (total > budget) process.exit(1)
