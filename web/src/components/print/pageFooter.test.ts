import { describe, expect, it } from 'vitest'
import { PAGE, PAGES, pageFooterContent, pageRule } from './pageFooter'

describe('pageFooterContent', () => {
  it('puts the page counters where the text says, and the rest as escaped strings', () => {
    expect(pageFooterContent(`Trần Thị Lan 000123 Page ${PAGE} of ${PAGES}`)).toBe('"Trần Thị Lan 000123 Page " counter(page) " of " counter(pages)')
  })

  it('never lets a name end the string or the rule', () => {
    const css = pageFooterContent(`O"Brien; } body { display: none ${PAGE}`)
    expect(css).toBe('"O\\22 Brien\\3b  \\7d  body \\7b  display\\3a  none " counter(page)')
  })

  it('leaves the rule without a footer when there is none (a roll)', () => {
    expect(pageRule('80mm 297mm', '3mm')).toBe('@page { size: 80mm 297mm; margin: 3mm; }')
  })
})
