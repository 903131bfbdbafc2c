// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { beforeAll, describe, expect, it } from 'vitest'
import { initI18n } from '../../lib/i18n'
import { axeViolations } from '../../test/axe'
import { SnippetTextArea } from './SnippetTextArea'

const snippets = [
  { shortcut: ';ntd', section: 'examination', body: 'Lungs clear. BP {{vitals.bp}} mmHg.' },
  { shortcut: ';pt', section: 'any', body: '{{age}}, {{sex}}. HbA1c {{last.HbA1c}}.' },
  { shortcut: ';plan', section: 'plan', body: 'Not for this section.' },
]
const values = () => ({ 'vitals.bp': '138/86', age: '56 years old', sex: 'male' })

function Field({ initial = '' }: { initial?: string }) {
  const [value, setValue] = useState(initial)
  return (
    <>
      <label htmlFor="exam">Examination</label>
      <SnippetTextArea id="exam" value={value} onChange={setValue} section="examination" snippets={snippets} values={values} />
    </>
  )
}

const box = () => screen.getByLabelText('Examination') as HTMLTextAreaElement

/** Types text at the end, as the browser would (a change, the caret after it). */
function typeAtEnd(text: string) {
  const el = box()
  fireEvent.input(el, { target: { value: el.value + text } })
  el.setSelectionRange(el.value.length, el.value.length)
}

/** Presses a key; answers whether the component took it (prevented the browser's own action). */
function press(key: string, init: Record<string, unknown> = {}) {
  let taken = false
  act(() => {
    taken = !fireEvent.keyDown(box(), { key, ...init })
  })
  return taken
}

const marks = () => [...document.querySelectorAll('mark')].map((m) => m.textContent)

describe('SnippetTextArea', () => {
  beforeAll(() => initI18n('en'))

  it('expands a shortcut on Space and marks the filled value', () => {
    render(<Field />)
    typeAtEnd(';ntd')
    expect(press(' ')).toBe(true)
    expect(box().value).toBe('Lungs clear. BP 138/86 mmHg.')
    expect(box().selectionStart).toBe(box().value.length)
    expect(marks()).toEqual(['138/86'])
    expect(screen.getByText(/1 value filled from the chart/)).toBeTruthy()
  })

  it('expands on Tab, keeps a placeholder without a value marked as missing, and only for its section', () => {
    render(<Field />)
    typeAtEnd('Seen: ;pt')
    expect(press('Tab')).toBe(true)
    expect(box().value).toBe('Seen: 56 years old, male. HbA1c {{last.HbA1c}}.')
    expect(marks()).toEqual(['56 years old', 'male', '{{last.HbA1c}}'])
    typeAtEnd(' ;plan')
    expect(press(' ')).toBe(false) // a plan snippet does not expand in the examination
    expect(box().value.endsWith(';plan')).toBe(true)
  })

  it('leaves Space alone after an unknown shortcut or inside a word', () => {
    render(<Field />)
    typeAtEnd(';nope')
    expect(press(' ')).toBe(false)
    typeAtEnd(' a;ntd')
    expect(press(' ')).toBe(false)
    expect(box().value).toBe(';nope a;ntd')
  })

  it('brings the shortcut back on Ctrl+Z', () => {
    render(<Field />)
    typeAtEnd('Seen. ;ntd')
    press(' ')
    expect(box().value).toBe('Seen. Lungs clear. BP 138/86 mmHg.')
    expect(press('z', { ctrlKey: true })).toBe(true)
    expect(box().value).toBe('Seen. ;ntd')
    expect(marks()).toEqual([])
    // Once the text moved on, Ctrl+Z is the browser's own again.
    press(' ')
    typeAtEnd('!')
    expect(press('z', { ctrlKey: true })).toBe(false)
  })

  it('drops a mark once its value is edited, and keeps it when text is added elsewhere', () => {
    render(<Field />)
    typeAtEnd(';ntd')
    press(' ')
    typeAtEnd(' Well.')
    expect(marks()).toEqual(['138/86'])
    fireEvent.input(box(), { target: { value: 'Lungs clear. BP 130/86 mmHg. Well.' } })
    expect(marks()).toEqual([])
    expect(screen.queryByText(/filled from the chart/)).toBeNull()
  })

  it('never expands while an input method is composing', () => {
    render(<Field initial=";ntd" />)
    box().setSelectionRange(4, 4)
    fireEvent.compositionStart(box())
    expect(press(' ')).toBe(false)
    expect(press('Tab')).toBe(false)
    expect(press(' ', { isComposing: true })).toBe(false)
    expect(box().value).toBe(';ntd')
    fireEvent.compositionEnd(box())
    // A key the input method still holds ("Process", keyCode 229) does not expand either.
    expect(press('Process', { keyCode: 229 })).toBe(false)
    expect(press(' ', { keyCode: 229 })).toBe(false)
    expect(box().value).toBe(';ntd')
    expect(press(' ')).toBe(true)
    expect(box().value).toBe('Lungs clear. BP 138/86 mmHg.')
  })

  it('is named by its label and described by its help, a native textarea Tab leaves when nothing expands, with no axe finding while marked', async () => {
    function Described() {
      const [value, setValue] = useState('')
      return (
        <>
          <label htmlFor="exam">Examination</label>
          <SnippetTextArea id="exam" value={value} onChange={setValue} section="examination" snippets={snippets} values={values} aria-describedby="exam-help" minRows={3} />
          <div id="exam-help">Type ;ntd then Space</div>
        </>
      )
    }
    const { container } = render(<Described />)
    const el = screen.getByRole('textbox', { name: 'Examination' })
    expect(el.tagName).toBe('TEXTAREA')
    expect(el.getAttribute('aria-describedby')).toBe('exam-help')
    expect(el.getAttribute('rows')).toBe('3')
    typeAtEnd('Seen')
    expect(press('Tab')).toBe(false) // no shortcut before the caret: Tab moves on
    typeAtEnd(' ;ntd')
    press(' ')
    expect(marks()).toEqual(['138/86'])
    expect(await axeViolations(container)).toEqual([])
  })
})
