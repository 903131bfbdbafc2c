// The front end's import rules (bulletproof-react's): features never import each other and
// never the app shell (app/ composes them); shared code (lib/, components/, light/) never imports a
// feature; and no page imports another page (a page is a file named *Page.tsx: what two pages
// share goes in a component file that is not a page).
//
// And its data-layer conventions:
// - only an API operation file (a feature's api/ folder, or the shared data layer in lib/)
//   calls the API client's get, send or http — pages, components and the shell call operations;
// - no query key is spelled out as a raw array (each starts from a root key of lib/queryKeys.ts,
//   so that invalidation reaches it);
// - one API operation per file of an api/ folder. An operation is a top-level declaration
//   (function, const, class) whose body calls the API client (get, send or http, under the names
//   the file imports them by): the fetcher, or the query or mutation hook that calls the client
//   itself. Its queryOptions and hooks built on the fetcher, its types and constants belong to it
//   and may sit beside it; a file that calls no client (types.ts, a shared mutation.ts) holds none;
//   one mutation that makes several requests (hold, then review) is one operation, and so (the
//   count goes by declarations) is a hook that returns several mutations, a card's actions;
// - the query cache is written (invalidateQueries, setQueryData, setQueriesData, removeQueries,
//   resetQueries) only by the data layer: a feature's api/ folder, lib/, and app/push.ts (which
//   refreshes what the live channel announces). A screen calls a mutation hook whose onSuccess
//   refreshes, or a write or refresh of api/ (built with lib/write.ts's useWrite and useRefresh).
//
// The last three rules are counted against allow-lists (ALLOWED below, each entry with how many
// times its file breaks the rule): a file not on a list fails at its first break, a listed file
// fails when it breaks the rule more often than listed, and also when less often, so that the entry
// is lowered (or removed) in the same change and the lists only shrink.
//
// Run: node scripts/check-boundaries.mjs [src-dir] (default: web/src; the allow-lists are the app's,
// so another tree is checked without them). Fails listing every line that breaks a rule.
// scripts/check-boundaries.test.ts runs it on the trees of scripts/fixtures/boundaries.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { basename, dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

/**
 * The files allowed to break a counted rule, and how many times each. Each rule started from a
 * list of the files that broke it when it came (issue 57), all since brought to keep it: the
 * lists are empty, and an entry is a debt that needs its reason beside it.
 */
export const ALLOWED = {
  /** Files of an api/ folder holding more than one operation: file → operations. */
  operations: {},
  /** Files outside the data layer that write the query cache: file → writes. */
  cacheWrites: {},
  /** Pages that import another page: file → imports. */
  pageImports: {},
}

const CLIENT = ['get', 'send', 'http']
const CACHE_WRITE = /\b(invalidateQueries|setQueryData|setQueriesData|removeQueries|resetQueries)\s*\(/g

/** Every rule the tree under root breaks, one line each; empty when it keeps them all. */
export function check(root, allowed = ALLOWED) {
  root = resolve(root)
  const files = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? files(join(dir, n)) : [join(dir, n)]))
  const rel = (path) => relative(root, path).split(sep).join('/')
  /** Where a path is: ['features', name], ['app'], ['shared'], or [] elsewhere. */
  const placeOf = (path) => {
    const [top, name] = rel(path).split('/')
    if (top === 'features') return ['features', name]
    if (top === 'app') return ['app']
    if (top === 'lib' || top === 'components' || top === 'light') return ['shared']
    return []
  }
  const isPage = (path) => /Page$/.test(basename(path).replace(/\.tsx?$/, ''))
  const rules = [
    ['features', (from, to) => to[0] === 'features' && to[1] !== from[1], 'a feature imports another feature (move shared code to src/lib or src/components, or compose in src/app)'],
    ['features', (_, to) => to[0] === 'app', 'a feature imports the app shell (the shell composes features, not the other way round)'],
    ['shared', (_, to) => to[0] === 'features', 'shared code imports a feature (features build on shared code, not the other way round)'],
  ]
  const bad = []
  // How often each file breaks a counted rule, by rule.
  const counted = { operations: {}, cacheWrites: {}, pageImports: {} }
  const why = {}
  const sources = files(root).filter((f) => /\.(ts|tsx)$/.test(f))
  // Tests and their support (src/test/, which answers a screen's requests in place of the
  // server, and seeds the cache) are not the data layer.
  const testSupport = (f) => /\.test\.tsx?$/.test(f) || rel(f).split('/')[0] === 'test'
  for (const file of sources) {
    const from = placeOf(file)
    const source = readFileSync(file, 'utf8')
    for (const [, spec] of source.matchAll(/(?:\bfrom|\bimport\(?)\s*['"](\.[^'"]+)['"]/g)) {
      const target = resolve(dirname(file), spec)
      const to = placeOf(target)
      for (const [where, breaks, reason] of rules) {
        if (from[0] === where && breaks(from, to)) bad.push(`${rel(file)} imports ${spec}: ${reason}`)
      }
      if (!testSupport(file) && isPage(file) && isPage(target)) {
        counted.pageImports[rel(file)] = (counted.pageImports[rel(file)] ?? 0) + 1
        ;(why.pageImports ??= {})[rel(file)] = `imports the page ${spec}: a page never imports another page (move what both use into a component file that is not a page)`
      }
    }
  }
  // The data layer: which files may call the API client directly, and write the cache.
  const operationFile = (path) => {
    const parts = rel(path).split('/')
    return parts[0] === 'lib' || parts.slice(0, -1).includes('api')
  }
  const cacheWriter = (path) => operationFile(path) || rel(path) === 'app/push.ts'
  const clientCall = /import\s*(?:type\s*)?\{([^}]*)\}\s*from\s*['"][./]*(?:lib\/)?api['"]/g
  for (const file of sources.filter((f) => !testSupport(f))) {
    const source = readFileSync(file, 'utf8')
    // The names the file imports the client's calls by (get, or get as apiGet).
    const imported = [...source.matchAll(clientCall)].flatMap(([, names]) =>
      names
        .split(',')
        .map((n) => n.trim().split(/\s+as\s+/))
        .filter(([n]) => CLIENT.includes(n)),
    )
    if (!operationFile(file) && imported.length) {
      bad.push(`${rel(file)} imports ${imported.map(([n]) => n).join(', ')} from the API client: call an operation of the feature's api/ folder (or lib/) instead`)
    }
    for (const [line] of source.matchAll(/queryKey:\s*\[\s*['"][^\n]*/g)) {
      bad.push(`${rel(file)}: a query key spelled out (${line.trim()}): start it from a root key of lib/queryKeys.ts in the operation's queryOptions`)
    }
    const code = withoutComments(source)
    if (operationFile(file) && rel(file).split('/')[0] !== 'lib' && imported.length) {
      const local = imported.map(([n, as]) => as ?? n)
      const calls = new RegExp(`(?<![\\w$.])(?:${local.join('|')})\\s*[<(]`)
      const ops = declarations(code)
        .filter((d) => calls.test(d.body))
        .map((d) => d.name)
      if (ops.length > 1) {
        counted.operations[rel(file)] = ops.length
        ;(why.operations ??= {})[rel(file)] = `holds ${ops.length} API operations (${ops.join(', ')}): one operation per file of api/ (split it, one file each)`
      }
    }
    if (!cacheWriter(file)) {
      const writes = [...code.matchAll(CACHE_WRITE)].map((m) => m[1])
      if (writes.length) {
        counted.cacheWrites[rel(file)] = writes.length
        ;(why.cacheWrites ??= {})[rel(file)] =
          `writes the query cache ${writes.length} time(s) (${[...new Set(writes)].join(', ')}): only api/, lib/ and app/push.ts do (call a mutation hook of the feature's api/ whose onSuccess refreshes, or a refresh function of api/)`
      }
    }
  }
  for (const rule of Object.keys(counted)) {
    const list = allowed[rule] ?? {}
    for (const [file, n] of Object.entries(counted[rule])) {
      if (!(file in list)) bad.push(`${file} ${why[rule][file]}`)
      else if (n > list[file]) bad.push(`${file} ${why[rule][file]}; it is allowed ${list[file]} (ALLOWED.${rule}), and the list must not grow`)
    }
    for (const [file, n] of Object.entries(list)) {
      const now = counted[rule][file] ?? 0
      if (now < n) bad.push(`${file} is allowed ${n} in ALLOWED.${rule} but breaks the rule ${now} time(s): ${now ? `lower its entry to ${now}` : 'remove its entry'}`)
    }
  }
  return bad
}

/** The source without its comments (a call named in a comment is no call). Strings keep their `//` (a URL's). */
function withoutComments(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/[^\n]*/g, '$1')
}

/** The file's top-level declarations: each from a line that starts one, up to the next. */
function declarations(code) {
  const start = /^(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|const|let|var|class)\s+([\w$]+)?/
  const out = []
  for (const line of code.split('\n')) {
    const m = start.exec(line)
    if (m) out.push({ name: m[1] ?? 'default', body: '' })
    else if (/^(?:export\s+)?(?:interface|type|enum|import)\b/.test(line)) out.push({ name: '', body: '' })
    if (out.length) out[out.length - 1].body += line + '\n'
  }
  return out
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const app = fileURLToPath(new URL('../src', import.meta.url))
  const root = resolve(process.argv[2] ?? app)
  const bad = check(root, root === resolve(app) ? ALLOWED : {})
  if (bad.length) {
    console.error('Import boundaries broken:')
    for (const b of bad) console.error('  ' + b)
    process.exit(1)
  }
}
