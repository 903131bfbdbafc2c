// The component-size guard tested on fixtures built here, each a small tree of its own: it
// must fail every kind of break and pass what keeps the rules.
import { spawnSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'

const script = new URL('./check-component-size.mjs', import.meta.url).pathname
const roots = []
afterEach(() => roots.splice(0).forEach((r) => rmSync(r, { recursive: true, force: true })))

/** A component of n lines. */
const component = (n) => ['export function Card() {', ...Array.from({ length: n - 2 }, (_, i) => `  // line ${i + 2}`), '}'].join('\n') + '\n'
/** A file of n lines that declares no component (a table of routes with JSX icons). */
const table = (n) => ['export const routes = [', ...Array.from({ length: n - 2 }, (_, i) => `  { path: 'p${i}', icon: <Icon /> },`), ']'].join('\n') + '\n'

/** Runs the guard on a tree of files (path → text) and an allow-list; answers its exit code and what it said. */
function check(tree, allow) {
  const root = mkdtempSync(join(tmpdir(), 'component-size-'))
  roots.push(root)
  for (const [path, text] of Object.entries(tree)) {
    mkdirSync(dirname(join(root, 'src', path)), { recursive: true })
    writeFileSync(join(root, 'src', path), text)
  }
  writeFileSync(join(root, 'allow.json'), JSON.stringify(allow ?? {}))
  const run = spawnSync(process.execPath, [script, join(root, 'src'), join(root, 'allow.json')], { encoding: 'utf8' })
  return { code: run.status, said: run.stderr }
}

describe('check-component-size', () => {
  it.each([
    ['a small component', { 'a/Small.tsx': component(40) }],
    ['a component of 200 lines with no test', { 'a/Edge.tsx': component(200) }],
    ['a tested component of 300 lines', { 'a/Big.tsx': component(300), 'a/Big.test.tsx': 'test\n' }],
    ['a route table of 400 lines, which is no component', { 'routing/table.tsx': table(400) }],
  ])('passes %s', (_, tree) => {
    expect(check(tree)).toEqual({ code: 0, said: '' })
  })

  it.each([
    ['a component of 201 lines with no test', { 'a/Form.tsx': component(201) }, 'a/Form.tsx: 201 lines, over 200, with no component test'],
    ['a test beside it for another file', { 'a/Form.tsx': component(250), 'a/Other.test.tsx': 'test\n' }, 'a/Form.tsx: 250 lines, over 200'],
    ['a tested component of 301 lines', { 'a/Page.tsx': component(301), 'a/Page.test.tsx': 'test\n' }, 'a/Page.tsx: 301 lines, over 300'],
    ['an arrow-function component over 300 lines', { 'a/Arrow.tsx': component(320).replace('export function Card() {', 'export const Card = () => {') }, 'a/Arrow.tsx: 320 lines, over 300'],
  ])('fails %s', (_, tree, message) => {
    const { code, said } = check(tree)
    expect(code).toBe(1)
    expect(said).toContain(message)
  })

  it('lets a listed offender be, and shrink', () => {
    expect(check({ 'a/Old.tsx': component(390) }, { 'a/Old.tsx': { lines: 400, why: 'today' } }).code).toBe(0)
  })

  it('fails a listed offender that grew', () => {
    const { code, said } = check({ 'a/Old.tsx': component(401) }, { 'a/Old.tsx': { lines: 400, why: 'today' } })
    expect(code).toBe(1)
    expect(said).toContain('a/Old.tsx: grew from 400 to 401 lines')
  })

  it('fails a listed file that keeps the rules now, or is gone, until it leaves the list', () => {
    const { code, said } = check({ 'a/Mended.tsx': component(120) }, { 'a/Mended.tsx': { lines: 400, why: 'today' }, 'a/Gone.tsx': { lines: 350, why: 'today' } })
    expect(code).toBe(1)
    expect(said).toContain('a/Mended.tsx: keeps the rules now (120 lines): remove it')
    expect(said).toContain('a/Gone.tsx: on ')
  })

  it('fails a new offender beside listed ones', () => {
    const { code, said } = check({ 'a/Old.tsx': component(350), 'b/New.tsx': component(260) }, { 'a/Old.tsx': { lines: 350, why: 'today' } })
    expect(code).toBe(1)
    expect(said).not.toContain('a/Old.tsx')
    expect(said).toContain('b/New.tsx: 260 lines')
  })
})
