// The JavaScript and CSS each screen a clinic uses all day must load before it can show
// anything (issue 39; bench/first-load.mjs says what is counted). Bytes, not time: the same
// build gives the same numbers, so `make test` holds each screen to its budget and a change
// that bloats one fails with the number.
// Usage: node bench/screen-bytes.mjs [web/dist/app] — prints a table; exits 1 over a budget.
import { resolve } from 'node:path'
import { firstLoads, kb } from './first-load.mjs'

// Budgets in KB (gzip), per screen, counting the logged-in frame every screen is shown in (its
// navbar, menus and tabs), and for a screen still on the component library the library's
// provider and style sheet, compiled ahead of time (docs/adr/0036-component-styles-compiled-ahead.md),
// which load with it: what each loads now and about 2 % more
// (splitting one screen's code moves shared pieces between the bundler's common chunks, a few
// KB either way), so that nothing grows unnoticed; lowered as the screens are made lighter. The
// light frame's own sheet (its menus, tabs, drawer and toasts: about 1.5 KB) sits beside the
// library's on the screens still on it, hence 83 KB of CSS where it was 81.
const screens = [
  // Measured 2026-11-30 after the chart and the visit moved (issue 58, item 4), each budget that
  // and about 5 %. Before that move (gzip JS / CSS): the chart 448.0 / 84.0 and the visit
  // 524.2 / 85.2 on the library; after: 186.7 / 15.2 and 202.8 / 17.6. The other light screens
  // grew by 1–4 KB of JS and 0.3–0.8 KB of CSS with them: the light set they share (the date
  // field's first and last day, the combobox's groups, the table's rows that open, the icons
  // more than one screen draws). Earlier (the dashboard, the queue and the bill's move): 425.3 /
  // 81.4, 533.4 / 81.4 and 510.6 / 81.4 on the library, the patients list 190.4 / 8.6.
  { name: 'dashboard', module: /features\/dashboard\/DashboardPage\.tsx$/, js: 185, css: 11.8, light: true },
  { name: 'queue', module: /features\/appointments\/AppointmentsPage\.tsx$/, js: 198, css: 15.8, light: true },
  { name: 'patients list', module: /features\/patients\/PatientListPage\.tsx$/, js: 184, css: 13.2, light: true },
  { name: 'chart', module: /features\/patients\/PatientChartPage\.tsx$/, js: 196, css: 16, light: true },
  { name: 'visit', module: /features\/appointments\/DiagnosisPage\.tsx$/, js: 213, css: 18.5, light: true },
  { name: 'bill', module: /features\/fees\/BillPage\.tsx$/, js: 199, css: 15.9, light: true },
  { name: 'fee reports', module: /features\/fees\/ReportsPage\.tsx$/, js: 495, css: 86 },
]

const dist = resolve(process.argv[2] ?? new URL('../web/dist/app', import.meta.url).pathname)
const firstLoad = firstLoads(dist)

// The target (issue 58, docs/adr/0046): each everyday screen's first JavaScript ≤ 150 KB as the
// server sends it (brotli), once the frame and the screen are off the component library; shown
// beside the budgets until it is met, then the budget.
const TARGET_BR = 150

let over = false
console.log(`| screen | JS KB (gzip) | budget | CSS KB (gzip) | budget | JS KB (brotli) | target ${TARGET_BR} |`)
console.log('|---|---|---|---|---|---|---|')
for (const s of screens) {
  // A screen still on the library loads its provider (and the library's sheet) as it opens; a light one does not.
  const { js, css } = s.light ? firstLoad(/src\/app\/shell\/Shell\.tsx$/, s.module) : firstLoad(/src\/app\/shell\/Shell\.tsx$/, /src\/app\/shell\/AntdProvider\.tsx$/, s.module)
  const jsKB = kb(js)
  const cssKB = kb(css)
  const jsBr = kb(js, 'br')
  const mark = (v, budget) => (v > budget ? ' **over**' : '')
  console.log(`| ${s.name} | ${jsKB.toFixed(1)}${mark(jsKB, s.js)} | ${s.js} | ${cssKB.toFixed(1)}${mark(cssKB, s.css)} | ${s.css} | ${jsBr.toFixed(1)} | ${jsBr <= TARGET_BR ? 'met' : 'not yet'} |`)
  over ||= jsKB > s.js || cssKB > s.css
}
if (over) {
  console.error('a screen loads more than its budget (bench/screen-bytes.mjs)')
  process.exit(1)
}
