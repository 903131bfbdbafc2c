// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { Button, buttonClass } from './Button'
import { PlusIcon } from './icons'
import { Tag } from './Tag'

describe('Button', () => {
  it('is a native button named by its text, the icon hidden, pressed by click', async () => {
    const onClick = vi.fn()
    const { container } = render(
      <Button variant="primary" icon={<PlusIcon />} onClick={onClick}>
        New patient
      </Button>,
    )
    const button = screen.getByRole('button', { name: 'New patient' })
    expect(button).toHaveProperty('type', 'button')
    expect(button.querySelector('[aria-hidden] svg')).not.toBeNull()
    fireEvent.click(button)
    expect(onClick).toHaveBeenCalledOnce()
    expect(await axeViolations(container)).toEqual([])
  })

  it('is not pressed when disabled', () => {
    const onClick = vi.fn()
    render(
      <Button disabled onClick={onClick}>
        Save
      </Button>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(onClick).not.toHaveBeenCalled()
  })

  it('gives its classes to a link drawn as a button', () => {
    expect(buttonClass('primary').split(' ')).toHaveLength(2)
    expect(buttonClass().split(' ')).toHaveLength(1)
  })

  it('is held while its action runs (loading): busy and not pressed', () => {
    let pressed = 0
    render(
      <Button loading onClick={() => pressed++}>
        Receive
      </Button>,
    )
    const button = screen.getByRole('button', { name: 'Receive' })
    expect(button.getAttribute('aria-busy')).toBe('true')
    fireEvent.click(button)
    expect(pressed).toBe(0)
  })

  it('keeps focus while loading (aria-disabled, not disabled): a dialog saving does not drop it to the page', () => {
    const { rerender } = render(<Button>Receive</Button>)
    const button = screen.getByRole('button', { name: 'Receive' })
    button.focus()
    rerender(<Button loading>Receive</Button>)
    expect(button.hasAttribute('disabled')).toBe(false)
    expect(button.getAttribute('aria-disabled')).toBe('true')
    expect(document.activeElement).toBe(button)
  })
})

describe('Tag', () => {
  it('shows its text', async () => {
    const { container } = render(<Tag>Archived</Tag>)
    expect(screen.getByText('Archived')).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })
  it('says a state in words, its colour only repeating it', async () => {
    const { container } = render(<Tag color="orange">To pay</Tag>)
    expect(screen.getByText('To pay')).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })
})
