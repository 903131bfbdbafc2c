import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
// @ts-expect-error: a plain script, without types.
import { check } from './check-boundaries.mjs'

// The guard tests itself: each counted rule has a fixture tree that breaks it, and the check
// fails on it (with its allow-list empty), passes while the list holds the file's count, and
// fails when the file breaks the rule more or less often than listed.
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/boundaries/${name}`, import.meta.url))
const none = { operations: {}, cacheWrites: {}, pageImports: {} }

test('the app keeps every rule', () => {
  expect(check(fileURLToPath(new URL('../src', import.meta.url)))).toEqual([])
})

test('a clean tree keeps every rule: one operation per api/ file, cache writes in api/, lib/ and app/push.ts, a component two pages share', () => {
  expect(check(fixture('clean'), none)).toEqual([])
})

test.each([
  ['operations', 'features/things/api/things.ts', 2, /^features\/things\/api\/things\.ts holds 2 API operations \(thingQuery, useSaveThing\): one operation per file/],
  ['cache-writes', 'features/things/ThingPage.tsx', 1, /^features\/things\/ThingPage\.tsx writes the query cache 1 time\(s\) \(invalidateQueries\): only api\/, lib\/ and app\/push\.ts/],
  ['page-imports', 'features/things/PrintDrawerPage.tsx', 1, /^features\/things\/PrintDrawerPage\.tsx imports the page \.\/CashUpPage: a page never imports another page/],
])('the %s fixture breaks its rule', (name, file, count, message) => {
  const rule = { operations: 'operations', 'cache-writes': 'cacheWrites', 'page-imports': 'pageImports' }[name]!
  const bad: string[] = check(fixture(name), none)
  expect(bad.some((b) => message.test(b))).toBe(true)
  const others = (allowed: Record<string, Record<string, number>>) => check(fixture(name), allowed).filter((b: string) => b.startsWith(file))
  // Listed with its count, it passes; the list may not grow, and shrinks with the file.
  expect(others({ ...none, [rule]: { [file]: count } })).toEqual([])
  expect(others({ ...none, [rule]: { [file]: count - 1 } })).toEqual([expect.stringMatching(/the list must not grow$/)])
  expect(others({ ...none, [rule]: { [file]: count + 1 } })).toEqual([expect.stringMatching(new RegExp(`but breaks the rule ${count} time\\(s\\): lower its entry to ${count}$`))])
})

test('the shell writes the cache only from app/push.ts', () => {
  expect(check(fixture('cache-writes'), none)).toContainEqual(expect.stringMatching(/^app\/Shell\.tsx writes the query cache 1 time\(s\) \(removeQueries\)/))
})

test('a listed file that keeps the rule is to be removed from the list', () => {
  expect(check(fixture('clean'), { ...none, pageImports: { 'features/things/PrintThingPage.tsx': 1 } })).toEqual([
    'features/things/PrintThingPage.tsx is allowed 1 in ALLOWED.pageImports but breaks the rule 0 time(s): remove its entry',
  ])
})

test('run as a script, it fails listing the broken rules', () => {
  const script = fileURLToPath(new URL('./check-boundaries.mjs', import.meta.url))
  expect(() => execFileSync(process.execPath, [script, fixture('page-imports')], { stdio: 'pipe' })).toThrow(/imports the page \.\/CashUpPage/)
  expect(execFileSync(process.execPath, [script, fixture('clean')], { encoding: 'utf8' })).toBe('')
})
