// Generates the web app's API types (src/lib/api-schema.d.ts) from the contract,
// api/openapi.yaml, with openapi-typescript. As the Go tests read the contract, an object
// schema without a `required` list requires every property it declares but those named in
// its `x-optional`, so a field the server always sends is never optional in TypeScript.
// `--check` fails when the file is not what the contract generates (make lint).
import { readFileSync, writeFileSync } from 'node:fs'
import yaml from 'js-yaml'
import openapiTS from 'openapi-typescript'

const here = (p) => new URL(p, import.meta.url)
const out = here('../src/lib/api-schema.d.ts')

function requireDeclared(node) {
  if (Array.isArray(node)) return node.forEach(requireDeclared)
  if (!node || typeof node !== 'object') return
  if (node.properties && typeof node.properties === 'object' && node.required === undefined) {
    const optional = node['x-optional'] ?? []
    node.required = Object.keys(node.properties).filter((p) => !optional.includes(p))
  }
  Object.values(node).forEach(requireDeclared)
}

const doc = yaml.load(readFileSync(here('../../api/openapi.yaml'), 'utf8'))
requireDeclared(doc)
const header = '// Generated from api/openapi.yaml by scripts/api-types.mjs (npm run api-types). Do not edit.\n'
const generated = header + (await openapiTS(doc, { alphabetize: true, exportType: true }))

if (process.argv.includes('--check')) {
  let current = ''
  try {
    current = readFileSync(out, 'utf8')
  } catch {
    // missing: not up to date
  }
  if (current !== generated) {
    console.error('src/lib/api-schema.d.ts is not what api/openapi.yaml generates: run npm run api-types')
    process.exit(1)
  }
} else {
  writeFileSync(out, generated)
}
