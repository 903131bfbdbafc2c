// Measures the JavaScript a browser must load to show the login page: the entry chunk and
// the login route's chunk with everything they import statically, gzip-compressed.
// Usage: node bench/login-js-size.mjs [web/dist/app]  — prints JSON; exits 1 over budget.
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { gzipSync } from 'node:zlib'

const BUDGET_KB = 150
const dist = resolve(process.argv[2] ?? new URL('../web/dist/app', import.meta.url).pathname)
const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'))

const entryKey = Object.keys(manifest).find((k) => manifest[k].isEntry)
const loginKey = Object.keys(manifest).find((k) => /LoginPage\.tsx$/.test(k))
if (!entryKey || !loginKey) throw new Error('entry or login page not in the manifest')

const files = new Set()
const visit = (key) => {
  const chunk = manifest[key]
  if (!chunk || files.has(chunk.file)) return
  files.add(chunk.file)
  for (const dep of chunk.imports ?? []) visit(dep)
}
visit(entryKey)
visit(loginKey)

let raw = 0
let gzip = 0
const chunks = []
for (const file of files) {
  const data = readFileSync(join(dist, file))
  const gz = gzipSync(data, { level: 9 }).length
  raw += data.length
  gzip += gz
  chunks.push({ file, gzip_kb: +(gz / 1024).toFixed(1) })
}
chunks.sort((a, b) => b.gzip_kb - a.gzip_kb)
const result = { login_js_gzip_kb: +(gzip / 1024).toFixed(1), login_js_raw_kb: +(raw / 1024).toFixed(1), budget_kb: BUDGET_KB, chunks }
console.log(JSON.stringify(result, null, 2))
if (gzip / 1024 > BUDGET_KB) process.exit(1)
