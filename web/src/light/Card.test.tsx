// @vitest-environment jsdom
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { Card } from './Card'
import { Tag } from './Tag'

describe('Card', () => {
  it("titles a screen's panel with the page's h2, and a panel inside it with an h3", async () => {
    const { container } = render(
      <Card title="Welcome" extra={<button type="button">New</button>}>
        <Card level={3} title="Calendar">
          <p>November</p>
        </Card>
        <Card size="small" hoverable>
          <Tag color="gold">Arrived 2</Tag>
        </Card>
      </Card>,
    )
    expect(screen.getByRole('heading', { level: 2, name: 'Welcome' }).className).toContain('page-title')
    expect(screen.getByRole('heading', { level: 3, name: 'Calendar' })).toBeTruthy()
    // The small card has no heading of its own.
    expect(screen.getAllByRole('heading')).toHaveLength(2)
    expect(await axeViolations(container)).toEqual([])
  })
})
