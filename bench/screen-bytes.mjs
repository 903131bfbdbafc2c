// The JavaScript and CSS each screen a clinic uses all day must load before it can show
// anything (issue 39): the entry chunk and the screen's route chunk with everything they
// import statically, and the style sheets those chunks carry, gzip-compressed, from the
// Vite build manifest. Bytes, not time: the same build gives the same numbers, so `make test`
// holds each screen to its budget and a change that bloats one fails with the number.
// Chunks a screen imports only when it needs them (a chart, a print view) are not counted.
// Usage: node bench/screen-bytes.mjs [web/dist/app] — prints a table; exits 1 over a budget.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

// Budgets in KB (gzip), per screen: what each loads now and about 2 % more (splitting one
// screen's code moves shared pieces between the bundler's common chunks, a few KB either way),
// so that nothing grows unnoticed; lowered as the screens are made lighter.
const screens = [
  { name: 'dashboard', module: /features\/dashboard\/DashboardPage\.tsx$/, js: 360, css: 2 },
  { name: 'queue', module: /features\/appointments\/AppointmentsPage\.tsx$/, js: 475, css: 2 },
  { name: 'patients list', module: /features\/patients\/PatientListPage\.tsx$/, js: 405, css: 2 },
  { name: 'chart', module: /features\/patients\/PatientChartPage\.tsx$/, js: 410, css: 2 },
  { name: 'visit', module: /features\/appointments\/DiagnosisPage\.tsx$/, js: 510, css: 2 },
  { name: 'bill', module: /features\/fees\/BillPage\.tsx$/, js: 455, css: 2 },
  { name: 'fee reports', module: /features\/fees\/ReportsPage\.tsx$/, js: 495, css: 2 },
]

const dist = resolve(process.argv[2] ?? new URL('../web/dist/app', import.meta.url).pathname)
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'))
const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)
if (!entryKey) throw new Error('no entry in the manifest')

const gz = new Map()
const gzipKB = (file) => {
  if (!gz.has(file)) gz.set(file, gzipSync(readFileSync(join(dist, file)), { level: 9 }).length / 1024)
  return gz.get(file)
}

// closure is the files a screen loads first: the chunks reachable by static imports from the
// entry and its route chunk, and their style sheets.
const closure = (keys) => {
  const js = new Set()
  const css = new Set()
  const visit = (key) => {
    const chunk = manifest[key]
    if (!chunk || js.has(chunk.file)) return
    js.add(chunk.file)
    for (const file of chunk.css ?? []) css.add(file)
    for (const dep of chunk.imports ?? []) visit(dep)
  }
  keys.forEach(visit)
  return { js, css }
}

let over = false
console.log('| screen | JS KB (gzip) | budget | CSS KB (gzip) | budget |')
console.log('|---|---|---|---|---|')
for (const s of screens) {
  const key = Object.keys(manifest).find((k) => s.module.test(k))
  if (!key) throw new Error(`${s.name}: its page is not in the manifest`)
  const { js, css } = closure([entryKey, key])
  const jsKB = [...js].reduce((n, f) => n + gzipKB(f), 0)
  const cssKB = [...css].reduce((n, f) => n + gzipKB(f), 0)
  const mark = (v, budget) => (v > budget ? ' **over**' : '')
  console.log(`| ${s.name} | ${jsKB.toFixed(1)}${mark(jsKB, s.js)} | ${s.js} | ${cssKB.toFixed(1)}${mark(cssKB, s.css)} | ${s.css} |`)
  over ||= jsKB > s.js || cssKB > s.css
}
if (over) {
  console.error('a screen loads more than its budget (bench/screen-bytes.mjs)')
  process.exit(1)
}
