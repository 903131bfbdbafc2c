// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { initI18n, setLanguage } from '../lib/i18n'
import { axeViolations } from '../test/axe'
import { Field } from './Field'
import { AmountInput, NumberNote } from './NumberInput'

afterEach(cleanup)
beforeAll(async () => {
  await initI18n('en')
})

// What the form says under a typed number, in each language (issue 52: "you entered 1 500
// U/L" before saving where the reading could be taken for another; a possible thousands group
// refused with what to type).
describe('NumberNote', () => {
  it.each<['en' | 'ru' | 'zh' | 'vi', string, string, string]>([
    // lang, typed, unit, what the form says ('' for nothing)
    ['vi', '1 500', 'U/L', 'Bạn đã nhập 1\u202f500 U/L'],
    ['ru', '1 500', 'Ед/л', 'Вы ввели 1\u202f500 Ед/л'],
    ['en', '1.500', 'U/L', 'You entered 1.5 U/L'],
    ['zh', '12 000', 'U/L', '您输入的是 12\u202f000 U/L'],
    ['vi', '0.500', 'mmol/L', 'Bạn đã nhập 0,5 mmol/L'],
    ['vi', '1.500', 'U/L', 'Dấu chấm trước ba chữ số có thể là dấu phân cách hàng nghìn'],
    ['ru', '12.000', 'Ед/л', 'Точка перед тремя цифрами может разделять разряды'],
    ['en', '1,500', 'U/L', 'A comma before three digits could be a thousands separator'],
    ['ru', '36,6', '°C', ''],
    ['en', '36.6', '°C', ''],
  ])('%s %j', async (lang, typed, unit, says) => {
    await setLanguage(lang)
    render(<NumberNote text={typed} unit={unit} />)
    const note = screen.queryByTestId('number-note')
    if (says === '') expect(note).toBeNull()
    else expect(note?.textContent).toContain(says)
  })

  it('says a Vietnamese amount of đồng grouped by points back, and refuses it in pesos', async () => {
    await setLanguage('vi')
    render(<NumberNote text="200.000" unit="VND" amountUnits={0} />)
    expect(screen.getByTestId('number-note').textContent).toBe('Bạn đã nhập 200\u202f000 VND')
    cleanup()
    render(<NumberNote text="1.500" unit="PHP" amountUnits={2} />)
    expect(screen.getByTestId('number-note').textContent).toContain('dấu phân cách hàng nghìn')
  })
})

function Price() {
  const [text, setText] = useState('')
  return (
    <Field label="Price (PHP)" help={<NumberNote text={text} amountUnits={2} unit="PHP" />}>
      {(c) => <AmountInput {...c} value={text} onChange={setText} />}
    </Field>
  )
}

describe('AmountInput', () => {
  it('keeps the text typed, says a doubtful reading under it, and passes axe', async () => {
    await setLanguage('en')
    const { container } = render(<Price />)
    const price = screen.getByRole<HTMLInputElement>('textbox', { name: 'Price (PHP)' })
    expect(price.inputMode).toBe('decimal')
    fireEvent.input(price, { target: { value: '1,500' } })
    expect(price.value).toBe('1,500')
    expect(screen.getByTestId('number-note').textContent).toContain('thousands separator')
    expect(await axeViolations(container)).toEqual([])
  })
})
