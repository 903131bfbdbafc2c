// Theme colour helpers. The chosen theme colour (default #409EFF, spec §9) is kept as the
// setting; components that carry text use the nearest darker shade of it that keeps white
// text readable (WCAG AA, 4.5:1) — see docs/adr/0004-theme-colour-contrast.md.

/** The spec's default theme colour. */
export const DEFAULT_THEME_COLOR = '#409EFF'

const channel = (v: number) => {
  const s = v / 255
  return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
}

function parse(hex: string): [number, number, number] {
  const m = /^#?([0-9a-f]{6})$/i.exec(hex.trim())
  if (!m) throw new Error(`not a colour: ${hex}`)
  const n = parseInt(m[1], 16)
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255]
}

const toHex = (rgb: number[]) => '#' + rgb.map((v) => Math.round(v).toString(16).padStart(2, '0')).join('')

/** Relative luminance of a #rrggbb colour. */
export function luminance(hex: string): number {
  const [r, g, b] = parse(hex).map(channel)
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

/** Contrast ratio between two colours, from 1 to 21. */
export function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (hi + 0.05) / (lo + 0.05)
}

/** The colour itself if white text on it reaches `ratio`, else the lightest darker shade that does. */
export function readableShade(hex: string, ratio = 4.5): string {
  const rgb = parse(hex)
  for (let f = 1; f >= 0; f -= 0.01) {
    const shade = toHex(rgb.map((v) => v * f))
    if (contrast(shade, '#ffffff') >= ratio) return shade
  }
  return '#000000'
}

/** Contrast on white that keeps 4.5:1 on the lightest grey a link sits on (#f5f5f5). */
export const LINK_CONTRAST = 4.95
/** A link under the pointer: darker still, so hovering shows. */
export const LINK_HOVER_CONTRAST = 7

/** Ant Design tokens for a theme colour, with text colours that meet WCAG AA contrast. */
export function themeFor(color: string) {
  return {
    token: {
      colorPrimary: readableShade(color),
      // Links also sit on a hovered table row (#fafafa, 4% darker than white): a shade that
      // only just reaches 4.5:1 on white falls to 4.37 there (a patient's name in the queue).
      colorLink: readableShade(color, LINK_CONTRAST),
      // Under the pointer a link darkens rather than fading to the library's pale hover (2.4:1).
      colorLinkHover: readableShade(color, LINK_HOVER_CONTRAST),
      colorLinkActive: readableShade(color, LINK_HOVER_CONTRAST),
      colorTextSecondary: '#595959',
      colorTextTertiary: '#666666',
      colorTextDescription: '#595959',
      colorTextPlaceholder: '#767676',
      // Danger buttons, error text and links on white: Ant Design's #ff4d4f reaches only 3.3:1.
      colorError: '#cf1322',
      // Warning and success text on white: the library's #faad14 reaches 1.9:1 and #52c41a 2.3:1
      // (a withdrawn result's note on the release screen); #995f00 and green-8 reach 5.2 and 5.6, 5.0 and 5.4 on a hovered row.
      colorWarningText: '#995f00',
      colorSuccessText: '#237804',
    },
  }
}
