// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from '@testing-library/react'
import { Form } from 'antd'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { initI18n, setLanguage } from '../lib/i18n'
import { NumberInput } from './NumberInput'

afterEach(cleanup)
beforeAll(async () => {
  await initI18n('en')
})

describe('NumberInput', () => {
  it('gives the form the number read, NaN for one it cannot read, and shows a stored one as the language writes it', async () => {
    await setLanguage('ru')
    const got: (number | null)[] = []
    render(
      <Form initialValues={{ t: 36.6 }} onValuesChange={(v: { t?: number | null }) => got.push(v.t ?? null)}>
        <Form.Item name="t" label="Temperature">
          <NumberInput unit="°C" />
        </Form.Item>
      </Form>,
    )
    const input = screen.getByLabelText('Temperature') as HTMLInputElement
    expect(input.value).toBe('36,6')
    fireEvent.input(input, { target: { value: '37,2' } })
    fireEvent.input(input, { target: { value: '1.500' } })
    fireEvent.input(input, { target: { value: '' } })
    expect(got).toEqual([37.2, Number.NaN, null])
    await setLanguage('en')
  })
})
