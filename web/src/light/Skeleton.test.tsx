// @vitest-environment jsdom
import { render } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { Skeleton } from './Skeleton'
import { Statistic } from './Statistic'

describe('Skeleton', () => {
  it('is busy, its lines hidden from screen readers, as wide as asked', async () => {
    const { container } = render(<Skeleton lines={['70%', '40%']} />)
    const skeleton = container.firstElementChild as HTMLElement
    expect(skeleton.getAttribute('aria-busy')).toBe('true')
    const lines = skeleton.querySelectorAll('span')
    expect([...lines].map((l) => l.style.width)).toEqual(['70%', '40%'])
    expect([...lines].every((l) => l.getAttribute('aria-hidden') === 'true')).toBe(true)
    expect(await axeViolations(container)).toEqual([])
  })

  it('draws one block of a given height instead of lines', async () => {
    const { container } = render(<Skeleton block={300} />)
    const shapes = container.querySelectorAll('span')
    expect(shapes).toHaveLength(1)
    expect((shapes[0] as HTMLElement).style.height).toBe('300px')
    expect(await axeViolations(container)).toEqual([])
  })
})

describe('Statistic', () => {
  it('is a term and its value, a skeleton while it loads', async () => {
    const { container, getByRole, rerender } = render(<Statistic title="Waiting now" value="" loading />)
    expect(getByRole('term').textContent).toBe('Waiting now')
    expect(getByRole('definition').querySelector('[aria-busy=true]')).toBeTruthy()
    rerender(<Statistic title="Waiting now" value="1,234" tone="danger" />)
    expect(getByRole('definition').textContent).toBe('1,234')
    expect(getByRole('definition').querySelector('[aria-busy]')).toBeNull()
    expect(await axeViolations(container)).toEqual([])
  })
})
