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
    save: (type) => saveSignature(pad.current!, type),
    clear: () => pad.current?.clear(),
    isEmpty: () => pad.current?.isEmpty() ?? true,
    strokes: () => pad.current?.toData() ?? [],
  }))

  return <canvas ref={canvas} aria-label={label} role="img" style={{ width: '100%', height, border: '1px dashed #bfbfbf', borderRadius: 6, touchAction: 'none', background: '#fff' }} />
})
