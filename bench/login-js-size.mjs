// Measures the JavaScript a browser must load to show the login page: the entry chunk and
// the login route's chunk with everything they import statically, gzip-compressed.
// Usage: node bench/login-js-size.mjs [web/dist/app]  — prints JSON; exits 1 over budget.
import { resolve } from 'node:path'
import { firstLoads, kb } from './first-load.mjs'

const BUDGET_KB = 150
const dist = resolve(process.argv[2] ?? new URL('../web/dist/app', import.meta.url).pathname)
const { js } = firstLoads(dist)(/LoginPage\.tsx$/)
const chunks = js.map((f) => ({ file: f.file, gzip_kb: +(f.gzip / 1024).toFixed(1) })).sort((a, b) => b.gzip_kb - a.gzip_kb)
const gzip = kb(js)
const result = { login_js_gzip_kb: +gzip.toFixed(1), login_js_raw_kb: +kb(js, 'raw').toFixed(1), budget_kb: BUDGET_KB, chunks }
console.log(JSON.stringify(result, null, 2))
if (gzip > BUDGET_KB) process.exit(1)
