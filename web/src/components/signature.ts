// The signature rules of spec §5 and §9, apart from the canvas so they can be tested alone.
import type { Options } from 'signature_pad'

/** signature_pad settings of spec §9. */
export const SIGNATURE_OPTIONS: Options = {
  minWidth: 0.5,
  maxWidth: 2.5,
  dotSize: 1.5,
  throttle: 16,
  minDistance: 5,
  velocityFilterWeight: 0.7,
}

/** The image types a signature may be saved as. */
export const SIGNATURE_TYPES = ['image/png', 'image/jpeg', 'image/svg+xml'] as const
export type SignatureType = (typeof SIGNATURE_TYPES)[number]

/** PNG/JPEG quality when saving. */
export const SIGNATURE_QUALITY = 0.92

export interface SavedSignature {
  isEmpty: boolean
  /** A data URL of the image; empty when isEmpty. */
  data: string
}

/** What saving needs of a pad (signature_pad's own methods). */
export interface Pad {
  isEmpty(): boolean
  toDataURL(type?: string, encoderOptions?: number): string
}

/** Saves the pad as an image of `type`; any type but PNG, JPEG or SVG is an error. */
export function saveSignature(pad: Pad, type: string = 'image/png'): SavedSignature {
  if (!SIGNATURE_TYPES.includes(type as SignatureType)) {
    throw new Error(`A signature can be saved as ${SIGNATURE_TYPES.join(', ')}, not ${type}.`)
  }
  if (pad.isEmpty()) return { isEmpty: true, data: '' }
  return { isEmpty: false, data: pad.toDataURL(type, SIGNATURE_QUALITY) }
}

/** A base64 data URL (what the pad saves) as a file to upload. Decoded here, not fetched: the CSP forbids fetching data: URLs. */
export function fileOf(dataURL: string, name: string): File {
  const comma = dataURL.indexOf(',')
  const type = /^data:([^;,]+)/.exec(dataURL)?.[1] ?? 'application/octet-stream'
  const bytes = Uint8Array.from(atob(dataURL.slice(comma + 1)), (c) => c.charCodeAt(0))
  return new File([bytes], name, { type })
}
