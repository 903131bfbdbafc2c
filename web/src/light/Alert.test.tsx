// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { Alert } from './Alert'
import { Button } from './Button'

describe('Alert', () => {
  it('shows a title, a description and an action; interrupts only when told', async () => {
    const { container } = render(<Alert type="info" title="Previewing as Receptionist" description="What they see." action={<Button>Stop</Button>} data-testid="preview" />)
    expect(screen.getByTestId('preview').textContent).toContain('Previewing as ReceptionistWhat they see.')
    expect(screen.queryByRole('alert')).toBeNull()
    expect(screen.getByRole('button', { name: 'Stop' })).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
    render(<Alert type="error" role="alert" title="2 critical results" />)
    expect(screen.getByRole('alert').textContent).toContain('2 critical results')
  })

  it('closes by its named button when it can be dismissed', async () => {
    const onClose = vi.fn()
    const { container } = render(<Alert type="success" title="Payment received" onClose={onClose} closeLabel="Dismiss" />)
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }))
    expect(onClose).toHaveBeenCalledOnce()
    expect(await axeViolations(container)).toEqual([])
  })
})
