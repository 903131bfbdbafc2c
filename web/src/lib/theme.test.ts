import { contrast, readableShade, themeFor } from './theme'

describe('readableShade', () => {
  it('darkens the default theme colour until white text reads at 4.5:1', () => {
    expect(contrast('#409EFF', '#ffffff')).toBeLessThan(4.5)
    const shade = readableShade('#409EFF')
    expect(contrast(shade, '#ffffff')).toBeGreaterThanOrEqual(4.5)
    expect(contrast(readableShade('#409EFF', 4.4), '#ffffff')).toBeLessThan(4.6) // the lightest that passes, not black
  })
  it('keeps a colour that is dark enough already', () => {
    expect(readableShade('#13447a')).toBe('#13447a')
  })
  it('computes the WCAG ratio', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 5)
    expect(contrast('#777777', '#ffffff')).toBeCloseTo(4.48, 2)
  })
  // Clinic-day review, m27: a patient's name on a hovered queue row read at 4.37:1.
  it('keeps links readable on a hovered row and on light grey', () => {
    const link = themeFor('#409EFF').token.colorLink
    expect(contrast(link, '#fafafa')).toBeGreaterThanOrEqual(4.5)
    expect(contrast(link, '#f5f5f5')).toBeGreaterThanOrEqual(4.5)
    expect(contrast(themeFor('#409EFF').token.colorLinkHover, '#fafafa')).toBeGreaterThanOrEqual(4.5)
  })
})
