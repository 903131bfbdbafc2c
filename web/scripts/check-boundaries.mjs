// The front end's import rules (bulletproof-react's): features never import each other and
// never the app shell (app/ composes them); shared code (lib/, components/) never imports a
// feature. And its one data-layer convention: only an API operation file (a feature's api/
// folder, or the shared data layer in lib/) calls the API client's get, send or http — pages,
// components and the shell call operations; and no query key is spelled out as a raw array
// (each starts from a root key of lib/queryKeys.ts, so that invalidation reaches it). Fails
// listing every line that breaks a rule.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

const root = resolve(new URL('../src', import.meta.url).pathname)
const files = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]))
/** Where a path is: ['features', name], ['app'], ['shared'], or [] elsewhere. */
const placeOf = (path) => {
  const [top, name] = relative(root, path).split(sep)
  if (top === 'features') return ['features', name]
  if (top === 'app') return ['app']
  if (top === 'lib' || top === 'components') return ['shared']
  return []
}
const rules = [
  ['features', (from, to) => to[0] === 'features' && to[1] !== from[1], 'a feature imports another feature (move shared code to src/lib or src/components, or compose in src/app)'],
  ['features', (_, to) => to[0] === 'app', 'a feature imports the app shell (the shell composes features, not the other way round)'],
  ['shared', (_, to) => to[0] === 'features', 'shared code imports a feature (features build on shared code, not the other way round)'],
]
const bad = []
for (const file of files(root).filter((f) => /\.(ts|tsx)$/.test(f))) {
  const from = placeOf(file)
  const source = readFileSync(file, 'utf8')
  for (const [, spec] of source.matchAll(/(?:\bfrom|\bimport\(?)\s*['"](\.[^'"]+)['"]/g)) {
    const to = placeOf(resolve(dirname(file), spec))
    for (const [where, breaks, why] of rules) {
      if (from[0] === where && breaks(from, to)) bad.push(`${relative(root, file)} imports ${spec}: ${why}`)
    }
  }
}
// The data layer: which files may call the API client directly.
const operationFile = (path) => {
  const parts = relative(root, path).split(sep)
  return parts[0] === 'lib' || parts.slice(0, -1).includes('api')
}
const clientCall = /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"][./]*(?:lib\/)?api['"]/g
// Tests and their support (src/test/, which answers a screen's requests in place of the
// server) are not the data layer.
const testSupport = (f) => /\.test\.tsx?$/.test(f) || relative(root, f).split(sep)[0] === 'test'
for (const file of files(root).filter((f) => /\.(ts|tsx)$/.test(f) && !testSupport(f))) {
  const source = readFileSync(file, 'utf8')
  if (!operationFile(file)) {
    for (const [, names] of source.matchAll(clientCall)) {
      const used = names.split(',').map((n) => n.trim().split(/\s+as\s+/)[0]).filter((n) => ['get', 'send', 'http'].includes(n))
      if (used.length) bad.push(`${relative(root, file)} imports ${used.join(', ')} from the API client: call an operation of the feature's api/ folder (or lib/) instead`)
    }
  }
  for (const [line] of source.matchAll(/queryKey:\s*\[\s*['"][^\n]*/g)) {
    bad.push(`${relative(root, file)}: a query key spelled out (${line.trim()}): start it from a root key of lib/queryKeys.ts in the operation's queryOptions`)
  }
}
if (bad.length) {
  console.error('Import boundaries broken:')
  for (const b of bad) console.error('  ' + b)
  process.exit(1)
}
