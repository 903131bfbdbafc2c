// @vitest-environment jsdom
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { CheckCircleIcon } from './icons'
import { Tag } from './Tag'

describe('Tag', () => {
  it('draws a named colour (the library’s and its status names alike), an unknown one grey, an icon hidden from screen readers', async () => {
    const { container } = render(
      <p>
        <Tag color="green" icon={<CheckCircleIcon />} data-testid="confirmed">
          Confirmed
        </Tag>
        <Tag color="success">Sent</Tag>
        <Tag color="default">Cancelled</Tag>
        <Tag color="lime">Other</Tag>
      </p>,
    )
    const confirmed = screen.getByTestId('confirmed')
    expect(confirmed.textContent).toBe('Confirmed')
    expect(confirmed.className).toMatch(/green/)
    expect(screen.getByText('Sent').className).toMatch(/green/)
    expect(screen.getByText('Cancelled').className).not.toMatch(/green|blue|red/)
    expect(screen.getByText('Other').className).not.toMatch(/lime/)
    expect(confirmed.querySelector('[aria-hidden] svg')).not.toBeNull()
    expect(await axeViolations(container)).toEqual([])
  })
})
