// Features never import each other; app/ composes them (bulletproof-react's rule).
// Fails listing every import from src/features/A that reaches into src/features/B.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'

const root = resolve(new URL('../src', import.meta.url).pathname)
const features = join(root, 'features')
const files = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]))
const featureOf = (path) => {
  const rel = relative(features, path)
  return rel.startsWith('..') ? null : rel.split(sep)[0]
}
const bad = []
for (const file of files(features).filter((f) => /\.(ts|tsx)$/.test(f))) {
  const source = readFileSync(file, 'utf8')
  for (const [, spec] of source.matchAll(/(?:\bfrom|\bimport\(?)\s*['"](\.[^'"]+)['"]/g)) {
    if (!spec) continue
    const target = featureOf(resolve(dirname(file), spec))
    if (target && target !== featureOf(file)) bad.push(`${relative(root, file)} imports ${spec}`)
  }
}
if (bad.length) {
  console.error('Features must not import each other (move shared code to src/lib or src/components, or compose in src/app):')
  for (const b of bad) console.error('  ' + b)
  process.exit(1)
}
