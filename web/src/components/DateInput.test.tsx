// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { Form } from 'antd'
import type { Dayjs } from 'dayjs'
import { afterEach, describe, expect, it } from 'vitest'
import { initI18n, type Language } from '../lib/i18n'
import { DateInput } from './DateInput'

afterEach(cleanup)

/** Types text into a date field and leaves it; resolves to the day the form then holds. */
async function typed(lang: Language, text: string) {
  await initI18n(lang)
  let value: Dayjs | undefined
  render(
    <Form onValuesChange={(_, all: { day?: Dayjs }) => (value = all.day)}>
      <Form.Item name="day" label="Day">
        <DateInput />
      </Form.Item>
    </Form>,
  )
  const input = screen.getByLabelText('Day')
  fireEvent.mouseDown(input)
  fireEvent.focus(input)
  fireEvent.input(input, { target: { value: text } })
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter' })
  await waitFor(() => expect(value?.format('YYYY-MM-DD')).toBe('2026-11-29'))
  return input as HTMLInputElement
}

// Clinic-day review, m3: a date typed the way the user's language writes it fills the field
// (it was dropped unless typed as ISO), and the field shows it in that language's format.
describe('DateInput', () => {
  it.each<[Language, string, string]>([
    ['vi', '29/11/2026', '29/11/2026'],
    ['vi', '29.11.2026', '29/11/2026'],
    ['ru', '29.11.2026', '29.11.2026'],
    ['ru', '29/11/2026', '29.11.2026'],
    ['zh', '2026/11/29', '2026-11-29'],
    ['en', '2026-11-29', '2026-11-29'],
  ])('in %s reads %s and shows %s', async (lang, text, shown) => {
    const input = await typed(lang, text)
    fireEvent.blur(input)
    await waitFor(() => expect(input.value).toBe(shown))
  })
})
