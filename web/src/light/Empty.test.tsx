// @vitest-environment jsdom
import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { Empty } from './Empty'

describe('Empty', () => {
  it('says there is nothing in words, its picture hidden from screen readers', async () => {
    const { container } = render(<Empty data-testid="none">No prescriptions</Empty>)
    expect(screen.getByTestId('none').textContent).toBe('No prescriptions')
    const svg = container.querySelector('svg')
    expect(svg?.closest('[aria-hidden="true"]') ?? (svg?.getAttribute('aria-hidden') === 'true' ? svg : null)).not.toBeNull()
    expect(await axeViolations(container)).toEqual([])
  })
})
