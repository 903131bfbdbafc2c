import SignaturePad, { type PointGroup } from 'signature_pad'
import { forwardRef, useEffect, useImperativeHandle, useRef } from 'react'
import { saveSignature, SIGNATURE_OPTIONS, type SavedSignature } from './signature'

/** What a parent can do with the canvas through its ref. */
export interface SignatureCanvasHandle {
  save(type?: string): SavedSignature
  clear(): void
  isEmpty(): boolean
  /** The strokes: points with x, y and time, and the pen colour (spec §3). */
  strokes(): PointGroup[]
}

interface Props {
  penColor?: string
  height?: number
  label: string
}

/** The canvas as a PNG cut to what was drawn, with a small margin, so that a signature prints at a useful size wherever it was drawn on the pad. */
function trimmed(el: HTMLCanvasElement, quality?: number): string {
  const { width, height } = el
  const pixels = el.getContext('2d')!.getImageData(0, 0, width, height).data
  let [minX, minY, maxX, maxY] = [width, height, -1, -1]
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      if (pixels[(y * width + x) * 4 + 3] > 0) {
        minX = Math.min(minX, x)
        maxX = Math.max(maxX, x)
        minY = Math.min(minY, y)
        maxY = Math.max(maxY, y)
      }
    }
  }
  if (maxX < 0) return el.toDataURL('image/png', quality)
  const margin = 8
  const [w, h] = [maxX - minX + 1, maxY - minY + 1]
  const out = document.createElement('canvas')
  out.width = w + 2 * margin
  out.height = h + 2 * margin
  out.getContext('2d')!.drawImage(el, minX, minY, w, h, margin, margin, w, h)
  return out.toDataURL('image/png', quality)
}

/** A signature-drawing canvas (signature_pad with the spec's settings), usable on any page. */
export const SignatureCanvas = forwardRef<SignatureCanvasHandle, Props>(function SignatureCanvas({ penColor = '#000000', height = 180, label }, ref) {
  const canvas = useRef<HTMLCanvasElement>(null)
  const pad = useRef<SignaturePad | null>(null)

  useEffect(() => {
    const el = canvas.current!
    const p = new SignaturePad(el, { ...SIGNATURE_OPTIONS, penColor, backgroundColor: 'rgba(255,255,255,0)' })
    pad.current = p
    // Sharp lines on high-density screens; keeps what was drawn across resizes.
    const resize = () => {
      const ratio = Math.max(window.devicePixelRatio || 1, 1)
      const data = p.toData()
      el.width = el.offsetWidth * ratio
      el.height = el.offsetHeight * ratio
      el.getContext('2d')?.scale(ratio, ratio)
      p.clear()
      p.fromData(data)
    }
    resize()
    window.addEventListener('resize', resize)
    return () => {
      window.removeEventListener('resize', resize)
      p.off()
    }
  }, [penColor])

  useImperativeHandle(ref, () => ({
    save: (type) => saveSignature({ isEmpty: () => pad.current!.isEmpty(), toDataURL: (t, q) => (t === 'image/png' ? trimmed(canvas.current!, q) : pad.current!.toDataURL(t, q)) }, type),
    clear: () => pad.current?.clear(),
    isEmpty: () => pad.current?.isEmpty() ?? true,
    strokes: () => pad.current?.toData() ?? [],
  }))

  return <canvas ref={canvas} aria-label={label} role="img" style={{ width: '100%', height, border: '1px dashed #bfbfbf', borderRadius: 6, touchAction: 'none', background: '#fff' }} />
})
