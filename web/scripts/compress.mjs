// Precompresses the built assets (brotli and gzip) so the server can send them as they are.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const dir = new URL('../dist/app/assets/', import.meta.url).pathname
for (const name of readdirSync(dir)) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue
  const data = readFileSync(join(dir, name))
  writeFileSync(join(dir, name + '.br'), brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
  writeFileSync(join(dir, name + '.gz'), gzipSync(data, { level: 9 }))
}
