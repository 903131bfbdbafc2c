// @vitest-environment jsdom
import { cleanup, render, screen } from '@testing-library/react'
import { Button, ConfigProvider } from 'antd'
import { afterEach, expect, it } from 'vitest'
import { buttonConfig } from './antdConfig'

afterEach(cleanup)

it('writes a two-character Chinese button as the translators did, unspaced', () => {
  render(
    <ConfigProvider button={buttonConfig}>
      <Button>退款</Button>
      <Button>作废</Button>
    </ConfigProvider>,
  )
  expect(screen.getAllByRole('button').map((b) => b.textContent)).toEqual(['退款', '作废'])
})
