// The size of a component: a .tsx file that declares a component (a function named in
// capitals) may pass 200 lines only with a component test beside it (X.test.tsx), and no
// component may pass 300. A file of data that renders nothing itself (the route table, whose
// icons are JSX) is not a component: it is read as one table, not split or rendered alone.
//
// Today's offenders are listed in component-size-allow.json with the lines they have; a file
// on the list may shrink but not grow, and one that keeps the rules again must leave the list,
// so the list only ever gets shorter.
//
//   node scripts/check-component-size.mjs [root] [allow-list]
//
// root defaults to src/, the allow-list to scripts/component-size-allow.json (paths in it are
// relative to root). Fails listing every file that breaks a rule.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative, resolve, sep } from 'node:path'

/** Lines a component may have without a component test beside it. */
export const UNTESTED_MAX = 200
/** Lines no component may have. */
export const MAX = 300

const web = resolve(new URL('..', import.meta.url).pathname)
const root = resolve(process.argv[2] ?? join(web, 'src'))
const allowFile = resolve(process.argv[3] ?? join(web, 'scripts', 'component-size-allow.json'))
/** path (relative to root, with /) → { lines, why } */
const allowed = existsSync(allowFile) ? JSON.parse(readFileSync(allowFile, 'utf8')) : {}

const files = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]))
const linesOf = (source) => source.split('\n').length - (source.endsWith('\n') ? 1 : 0)
/** A function or arrow function named in capitals: React's own test of a component's name. */
const declaresComponent = (source) => /\bfunction\s+[A-Z]\w*\s*[<(]/.test(source) || /\bconst\s+[A-Z]\w*\s*(?::[^=\n]+)?=\s*(?:async\s*)?(?:\(|\w+\s*=>)/.test(source)

/** What breaks the rules in one file, or ''. */
const breaks = (lines, tested) => {
  if (lines > MAX) return `${lines} lines, over ${MAX}: split it into smaller components`
  if (lines > UNTESTED_MAX && !tested) return `${lines} lines, over ${UNTESTED_MAX}, with no component test beside it: add one, or split it`
  return ''
}

const bad = []
const seen = new Set()
for (const file of files(root).filter((f) => f.endsWith('.tsx') && !f.endsWith('.test.tsx'))) {
  const source = readFileSync(file, 'utf8')
  if (!declaresComponent(source)) continue
  const path = relative(root, file).split(sep).join('/')
  const lines = linesOf(source)
  const why = breaks(lines, existsSync(file.replace(/\.tsx$/, '.test.tsx')))
  const listed = allowed[path]
  if (listed) seen.add(path)
  if (!why) {
    if (listed) bad.push(`${path}: keeps the rules now (${lines} lines): remove it from ${relative(web, allowFile)}`)
    continue
  }
  if (!listed) bad.push(`${path}: ${why}`)
  else if (lines > listed.lines) bad.push(`${path}: grew from ${listed.lines} to ${lines} lines while on the allow-list (${why})`)
}
for (const path of Object.keys(allowed).filter((p) => !seen.has(p))) bad.push(`${path}: on ${relative(web, allowFile)} but not a component of ${relative(web, root) || '.'} any more: remove it`)

if (bad.length) {
  console.error('Components too large:')
  for (const b of bad) console.error('  ' + b)
  process.exit(1)
}
