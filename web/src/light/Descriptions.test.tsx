// @vitest-environment jsdom
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { Descriptions } from './Descriptions'

const items = [
  { key: 'subtotal', label: 'Subtotal', children: '₱850.50' },
  { key: 'total', label: 'Total', children: <strong>₱680.40</strong> },
]

describe('Descriptions', () => {
  it.each([false, true])('bordered %s: each label a term and its value the definition, and passes axe', async (bordered) => {
    const { container } = render(<Descriptions bordered={bordered} column={bordered ? 1 : { xs: 1, sm: 2, lg: 3 }} items={items} />)
    const terms = screen.getAllByRole('term').map((t) => t.textContent)
    const values = screen.getAllByRole('definition').map((d) => d.textContent)
    expect(terms).toEqual(['Subtotal', 'Total'])
    expect(values).toEqual(['₱850.50', '₱680.40'])
    expect(await axeViolations(container)).toEqual([])
  })
})
