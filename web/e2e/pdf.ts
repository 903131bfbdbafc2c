// The text of each page of a PDF the browser printed (page.pdf()), for tests of how a sheet
// paginates. Only what Chromium (Skia) writes is read: pages listed under /Pages, Flate
// content streams, and fonts with a ToUnicode map. Lines are kept apart by the text matrix.
import { inflateSync } from 'node:zlib'

interface PdfObject {
  dict: string
  stream?: Buffer
}

function objects(pdf: Buffer): Map<number, PdfObject> {
  const text = pdf.toString('latin1')
  const out = new Map<number, PdfObject>()
  for (const m of text.matchAll(/(\d+) 0 obj\s*([\s\S]*?)endobj/g)) {
    const body = m[2]
    const at = body.indexOf('stream')
    if (at < 0) {
      out.set(Number(m[1]), { dict: body })
      continue
    }
    const dict = body.slice(0, at)
    let raw = Buffer.from(body.slice(body.indexOf('\n', at) + 1, body.lastIndexOf('endstream')), 'latin1')
    if (dict.includes('/FlateDecode')) raw = inflateSync(raw)
    out.set(Number(m[1]), { dict, stream: raw })
  }
  return out
}

const ref = (dict: string, key: string) => Number(new RegExp(`/${key} (\\d+) 0 R`).exec(dict)?.[1] ?? NaN)

/** The ToUnicode map of a font: code (hex) → text. */
function toUnicode(cmap: string): Map<string, string> {
  const map = new Map<string, string>()
  const chars = (hex: string) => String.fromCodePoint(...(hex.match(/.{4}/g) ?? []).map((h) => parseInt(h, 16)))
  for (const block of cmap.matchAll(/beginbfchar([\s\S]*?)endbfchar/g))
    for (const [, code, uni] of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) map.set(code.toUpperCase(), chars(uni))
  for (const block of cmap.matchAll(/beginbfrange([\s\S]*?)endbfrange/g))
    for (const [, from, to, uni] of block[1].matchAll(/<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>\s*<([0-9A-Fa-f]+)>/g)) {
      const start = parseInt(uni, 16)
      for (let c = parseInt(from, 16); c <= parseInt(to, 16); c++) map.set(c.toString(16).toUpperCase().padStart(from.length, '0'), String.fromCodePoint(start + c - parseInt(from, 16)))
    }
  return map
}

/** Each page's text, in order; a new line wherever the text matrix moves to another line. */
export function pdfPages(pdf: Buffer): string[] {
  const objs = objects(pdf)
  const pages: number[] = []
  const walk = (id: number) => {
    const o = objs.get(id)!
    if (/\/Type \/Pages\b/.test(o.dict)) for (const [, kid] of (/\/Kids \[([^\]]*)\]/.exec(o.dict)?.[1] ?? '').matchAll(/(\d+) 0 R/g)) walk(Number(kid))
    else pages.push(id)
  }
  const root = [...objs].find(([id, o]) => /\/Type \/Pages\b/.test(o.dict) && ![...objs.values()].some((p) => new RegExp(`/Kids \\[[^\\]]*\\b${id} 0 R`).test(p.dict)))
  walk(root![0])
  return pages.map((id) => {
    const page = objs.get(id)!.dict
    const fonts = new Map<string, Map<string, string>>()
    for (const [, name, fid] of (/\/Font <<([\s\S]*?)>>/.exec(page)?.[1] ?? '').matchAll(/\/(\w+) (\d+) 0 R/g)) {
      const cmap = objs.get(ref(objs.get(Number(fid))!.dict, 'ToUnicode'))?.stream
      fonts.set(name, cmap ? toUnicode(cmap.toString('latin1')) : new Map())
    }
    const content = objs.get(ref(page, 'Contents'))!.stream!.toString('latin1')
    let font = new Map<string, string>()
    let text = ''
    let y = ''
    for (const [, fontName, matrixY, hex] of content.matchAll(/\/(\w+) [\d.]+ Tf|[-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ [-\d.]+ ([-\d.]+) Tm|<([0-9A-Fa-f]*)> ?Tj/g)) {
      if (fontName) font = fonts.get(fontName) ?? new Map()
      else if (matrixY !== undefined) {
        if (y !== '' && matrixY !== y) text += '\n'
        y = matrixY
      } else {
        const width = [...font.keys()][0]?.length ?? 4
        for (const code of hex.match(new RegExp(`.{${width}}`, 'g')) ?? []) text += font.get(code.toUpperCase()) ?? ''
      }
    }
    return text
  })
}
