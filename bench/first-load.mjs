// What a browser must load before a screen can show anything, from the Vite build manifest:
// the entry chunk, the logged-in app's frame (for a screen behind the login) and the screen's
// route chunk, with everything they import statically, and
// the style sheets those chunks carry, each gzip-compressed (bench/login-js-size.mjs,
// bench/screen-bytes.mjs). Chunks a screen imports only when it needs them are not counted.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

/** The manifest of the build in dist, and a reader of a screen's first load in it. */
export function firstLoads(dist) {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite/manifest.json'), 'utf8'))
  // The staff app's entry (index.html); the build has others (link.html: bench/patient-page-size.mjs link).
  const entryKey = manifest['index.html']?.isEntry ? 'index.html' : Object.keys(manifest).find((k) => manifest[k].isEntry)
  if (!entryKey) throw new Error('no entry in the manifest')
  const sizes = new Map()
  const file = (f) => {
    if (!sizes.has(f)) {
      const data = readFileSync(join(dist, f))
      // Brotli as the server sends it: the build's own .br file (web/scripts/compress.mjs), made
      // here the same way where a file has none.
      const br = existsSync(join(dist, f + '.br'))
        ? readFileSync(join(dist, f + '.br')).length
        : brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length
      sizes.set(f, { file: f, raw: data.length, gzip: gzipSync(data, { level: 9 }).length, br })
    }
    return sizes.get(f)
  }
  /** The first load of the modules matching patterns (a screen's page module, and the logged-in
   * app's frame it is shown in): their JS and CSS files, with the entry's, and sizes in bytes. */
  return (...patterns) => {
    const keys = patterns.map((pattern) => {
      const key = Object.keys(manifest).find((k) => pattern.test(k))
      if (!key) throw new Error(`${pattern}: the module is not in the manifest`)
      return key
    })
    const js = new Set()
    const css = new Set()
    const visit = (k) => {
      const chunk = manifest[k]
      if (!chunk || js.has(chunk.file)) return
      js.add(chunk.file)
      for (const f of chunk.css ?? []) css.add(f)
      for (const dep of chunk.imports ?? []) visit(dep)
    }
    visit(entryKey)
    keys.forEach(visit)
    return { js: [...js].map(file), css: [...css].map(file) }
  }
}

/** The sum of files' sizes in KB (gzip, br or raw). */
export const kb = (files, kind = 'gzip') => files.reduce((n, f) => n + f[kind], 0) / 1024
