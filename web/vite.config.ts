import react from '@vitejs/plugin-react'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'vite'
import { defineConfig } from 'vitest/config'

// The component library's style sheet, compiled ahead of time (docs/adr/0036-component-styles-compiled-ahead.md):
// its rules read every colour and size from CSS variables, which the app's ConfigProvider
// writes at run time from the clinic's theme. The sheet also carries the variables' values
// for the default theme, under keys (css-var-_R_…) that only server rendering gives, so no
// element of this app ever matches them, and the run-time cache's path map, which only the
// run-time styling reads: both are dropped (about 80 KB, 13 KB compressed). So are the rules of
// the components the app never uses (same ADR): a rule goes when every class it names
// belongs to such a component; the build fails if the bundle holds a component the scan missed.
function antdStaticCss(): Plugin {
  const src = fileURLToPath(new URL('./src', import.meta.url))
  let used: AntdUse | undefined
  return {
    name: 'emr-antd-static-css',
    enforce: 'pre',
    transform(code, id) {
      if (!/antd\/dist\/antd\.css$/.test(id)) return null
      used ??= antdUsed(src)
      const { keys, known } = used
      // A class's key, looked up once per class name (the sheet names a few thousand, many times).
      const keyOfClass = new Map<string, string | undefined>()
      const keyOf = (cls: string) => {
        if (!keyOfClass.has(cls)) keyOfClass.set(cls, known.find((k) => cls === k || cls.startsWith(`${k}-`)))
        return keyOfClass.get(cls)
      }
      // A rule stays unless each class it names is a component's the app does not use.
      const unused = (selectors: string) => {
        const classes = [...selectors.matchAll(/\.ant-([a-z0-9-]+)/g)].map((m) => keyOf(m[1]))
        return classes.length > 0 && classes.every((k) => k !== undefined && !keys.has(k))
      }
      // Each innermost rule: its selectors that name a server-render key go; a rule left without
      // one goes, and so does a rule of unused components only.
      let out = code.replace(/([^{}]+)\{([^{}]*)\}/g, (_rule, selectors: string, body: string) => {
        const kept = selectors.split(',').filter((s) => !s.includes('.css-var-_R_') && !s.includes('.data-ant-cssinjs-cache-path'))
        return kept.length === 0 || unused(kept.join(',')) ? '' : `${kept.join(',')}{${body}}`
      })
      // At-rules (media queries) left empty.
      for (let before = ''; before !== out; ) {
        before = out
        out = out.replace(/@(media|supports|container)[^{}]*\{\}/g, '')
      }
      if (out.includes('css-var-_R_') || out.length > code.length - 50_000) throw new Error('antd.css: its layout changed; review antdStaticCss')
      return { code: out, map: null }
    },
    generateBundle(_options, bundle) {
      if (!used) return
      for (const chunk of Object.values(bundle)) {
        if (chunk.type !== 'chunk') continue
        for (const id of Object.keys(chunk.modules)) {
          const folder = /node_modules\/antd\/es\/([^/]+)\//.exec(id)?.[1]
          if (folder && !used.folders.has(folder)) throw new Error(`antd.css: the bundle holds antd/es/${folder}, which antdUsed missed; its rules were dropped`)
        }
      }
    },
  }
}

interface AntdUse {
  /** The library's folders the app's code can reach. */
  folders: Set<string>
  /** The class-name keys (getPrefixCls('btn') gives ant-btn) those folders' components use. */
  keys: Set<string>
  /** Every component's key, longest first (a class belongs to the longest key it starts with). */
  known: string[]
}

/**
 * What of the component library the app can use, read from the sources: the folders its imports
 * from 'antd' name, and every folder those import in turn (more than the bundle keeps, never
 * less: the bundle's own modules are checked against it).
 */
function antdUsed(src: string): AntdUse {
  const es = fileURLToPath(new URL('./node_modules/antd/es', import.meta.url))
  const files = (dir: string): string[] =>
    readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(join(dir, e.name)) : [join(dir, e.name)]))
  const folderOf: Record<string, string> = {}
  for (const m of readFileSync(join(es, 'index.js'), 'utf8').matchAll(/export \{([^}]*)\} from '\.\/([^/']+)'/g)) {
    for (const name of m[1].split(',')) folderOf[name.trim().split(/\s+as\s+/).pop()!] = m[2]
  }
  const start = new Set<string>()
  for (const f of files(src).filter((f) => /\.tsx?$/.test(f) && !/\.test\.tsx?$/.test(f))) {
    const code = readFileSync(f, 'utf8')
    for (const m of code.matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'antd'/g)) {
      for (const name of m[1].split(',')) {
        const exported = name.trim().replace(/^type\s+/, '').split(/\s+as\s+/)[0]
        if (exported && folderOf[exported]) start.add(join(es, folderOf[exported], 'index.js'))
      }
    }
    for (const m of code.matchAll(/from\s+'antd\/(?:es|lib)\/([^/']+)/g)) start.add(join(es, m[1], 'index.js'))
  }
  // Every file those reach by relative imports.
  const seen = new Set<string>()
  const queue = [...start]
  while (queue.length > 0) {
    const file = queue.pop()!
    if (seen.has(file) || !existsSync(file)) continue
    seen.add(file)
    for (const m of readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*'(\.[^']*)'/g)) {
      const target = resolve(dirname(file), m[1])
      queue.push(existsSync(`${target}.js`) ? `${target}.js` : join(target, 'index.js'))
    }
  }
  const folders = new Set([...seen].map((f) => relative(es, f).split(sep)[0]).filter((f) => !f.endsWith('.js')))
  // Each folder's class-name keys, every file read once.
  const keysIn = new Map(
    readdirSync(es, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => [
        e.name,
        files(join(es, e.name))
          .filter((f) => f.endsWith('.js'))
          .flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/getPrefixCls\('([a-z-]+)'/g)].map((m) => m[1])),
      ]),
  )
  const known = [...new Set([...keysIn.values()].flat())].sort((a, b) => b.length - a.length)
  return { folders, keys: new Set([...folders].flatMap((f) => keysIn.get(f) ?? [])), known }
}

// Two places where the component library relied on React's own event and effect objects, made to
// hold under Preact (docs/adr/0048). Each patch fails the build if its text is not found, so a
// library upgrade that changes them is read again.
// 1. The style cache: a style a mounted component uses is counted by an insertion effect; under
// Preact a component whose render was set aside (a part of its screen still loading) reads the
// style again after another user of it has gone and the count reached nothing, and the
// production build then reads an entry that is gone ("Cannot read properties of null": the
// whole screen failed). Its development build rebuilds the entry when it is missing; so does this.
// 2. A text field's change event: the library hands its handlers a copy of the event made with
// Object.create(event). React's event was a plain object; Preact's is the browser's, whose
// properties are getters that refuse such a copy ("Illegal invocation": the search box of a
// library screen threw on every key and filtered nothing). The copy is a view of the event
// instead, its target the field's copy as before.
const LIBRARY_PATCHES: { file: RegExp; from: string; to: string }[] = [
  {
    file: /@ant-design\/cssinjs\/es\/hooks\/useGlobalCache\.js$/,
    from: "process.env.NODE_ENV !== 'production' && !cacheEntity",
    to: '!cacheEntity',
  },
  {
    file: /@rc-component\/input\/es\/utils\/commonUtils\.js$/,
    from: `const newEvent = Object.create(event, {
    target: {
      value: currentTarget
    },
    currentTarget: {
      value: currentTarget
    }
  });`,
    to: `const newEvent = new Proxy(event, {
    get(e, key) {
      if (key === 'target' || key === 'currentTarget') return currentTarget;
      const v = Reflect.get(e, key, e);
      return typeof v === 'function' ? v.bind(e) : v;
    }
  });`,
  },
]
function libraryUnderPreact(): Plugin {
  return {
    name: 'emr-library-under-preact',
    transform(code, id) {
      const patch = LIBRARY_PATCHES.find((p) => p.file.test(id))
      if (!patch) return null
      const out = code.replace(patch.from, patch.to)
      if (out === code) throw new Error(`${id}: its text changed; review LIBRARY_PATCHES (docs/adr/0048)`)
      return { code: out, map: null }
    },
  }
}

// The build lands in dist/app, which the Go binary embeds (web/embed.go).
export default defineConfig({
  plugins: [react(), antdStaticCss(), libraryUnderPreact()],
  build: {
    outDir: 'dist/app',
    emptyOutDir: true,
    manifest: true,
    chunkSizeWarningLimit: 1500,
    // Four pages: the app, the page a patient's message links to (/m/…, ADR 42), the public
    // booking page (/book, ADR 43) and the patient portal (/portal, ADR 44), which share
    // nothing with the app but React.
    rollupOptions: {
      input: {
        index: fileURLToPath(new URL('./index.html', import.meta.url)),
        link: fileURLToPath(new URL('./link.html', import.meta.url)),
        portal: fileURLToPath(new URL('./portal.html', import.meta.url)),
        book: fileURLToPath(new URL('./book.html', import.meta.url)),
      },
    },
  },
  server: {
    proxy: { '/api': 'http://127.0.0.1:8080' },
  },
  // The app's `react`: Preact's layer with transitions that wait for the next paint
  // (src/lib/react.ts, docs/adr/0048); the tests keep the layer's own, run at once.
  resolve: process.env.VITEST ? {} : { alias: [{ find: /^react$/, replacement: fileURLToPath(new URL('./src/lib/react.ts', import.meta.url)) }] },
  test: {
    // Under Node the library's main entry is its CommonJS build (lib/), in the browser its ES one
    // (es/): the one deep import of it (the App context, app/shell/AntdProvider.tsx) follows, so
    // that both name the same context.
    alias: [
      { find: 'antd/es/app/context', replacement: 'antd/lib/app/context' },
      { find: /^@testing-library\/react$/, replacement: fileURLToPath(new URL('./node_modules/@testing-library/react/dist/@testing-library/react.esm.js', import.meta.url)) },
      { find: /^react-dom\/test-utils$/, replacement: 'preact/test-utils' },
    ],
    server: { deps: { inline: ['@testing-library/react'] } },
    // Node: most tests are logic; a test that needs a DOM says so (// @vitest-environment jsdom),
    // which spares the others jsdom's start (it was two thirds of the run).
    environment: 'node',
    globals: true,
    setupFiles: ['src/test/setup.ts'],
    // scripts/: the guards' own tests (their fixture trees hold no test of their own).
    include: ['src/**/*.test.{ts,tsx}', 'scripts/*.test.{ts,mjs}'],
    // A bound, not a wait: a screen rendered in jsdom (antd, the query cache, a dialog) takes
    // well under a second alone, but several seconds on a two-core machine that runs the Go
    // tests beside it; the default 5 s failed a bill's test there once.
    testTimeout: 30_000,
    // A worker's files share one module graph and one window: antd, React and jsdom are loaded
    // once, not per file (nine minutes became two). src/test/setup.ts makes each file start
    // as if alone.
    isolate: false,
  },
})
