// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { IconButton } from './IconButton'
import { useTooltip } from './Tooltip'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

/** A trigger not named by the tooltip's words: it is described by it. */
function Described() {
  const { anchor, tooltip, describedBy } = useTooltip('Saves the form as a draft', { named: false })
  return (
    <span {...anchor}>
      <button type="button" aria-describedby={describedBy}>
        Save
      </button>
      {tooltip}
    </span>
  )
}

describe('Tooltip', () => {
  it('an icon button’s: shown on hover, kept while the pointer is on it, hidden by Escape, for the eye only', async () => {
    const { container } = render(<IconButton label="Full screen">F</IconButton>)
    const button = screen.getByRole('button', { name: 'Full screen' })
    const anchor = button.parentElement!
    const tip = anchor.querySelector<HTMLElement>('[role="tooltip"]')!
    expect(tip.hidden).toBe(true)
    expect(tip.getAttribute('aria-hidden')).toBe('true')
    fireEvent.pointerEnter(anchor)
    expect(tip.hidden).toBe(false)
    expect(tip.textContent).toBe('Full screen')
    expect(await axeViolations(container)).toEqual([])
    // Escape, with focus elsewhere and the pointer still there, hides it until the pointer comes back.
    fireEvent.keyDown(document.body, { key: 'Escape' })
    expect(tip.hidden).toBe(true)
    fireEvent.pointerLeave(anchor)
    fireEvent.pointerEnter(anchor)
    expect(tip.hidden).toBe(false)
    fireEvent.pointerLeave(anchor)
    expect(tip.hidden).toBe(true)
  })

  it('shown on keyboard focus, hidden by Escape and on blur', () => {
    // jsdom has no keyboard modality: focus it gives is never :focus-visible, so here all of it is.
    const matches = Element.prototype.matches
    vi.spyOn(Element.prototype, 'matches').mockImplementation(function (this: Element, selector: string) {
      return selector === ':focus-visible' ? this === document.activeElement : matches.call(this, selector)
    })
    render(<IconButton label="Full screen">F</IconButton>)
    const button = screen.getByRole('button', { name: 'Full screen' })
    const tip = button.parentElement!.querySelector<HTMLElement>('[role="tooltip"]')!
    act(() => button.focus())
    expect(tip.hidden).toBe(false)
    fireEvent.keyDown(button, { key: 'Escape' })
    expect(tip.hidden).toBe(true)
    expect(document.activeElement).toBe(button)
    act(() => button.blur())
    act(() => button.focus())
    expect(tip.hidden).toBe(false)
    act(() => button.blur())
    expect(tip.hidden).toBe(true)
  })

  it('describes a trigger named otherwise', async () => {
    const { container } = render(<Described />)
    expect(screen.getByRole('button', { name: 'Save', description: 'Saves the form as a draft' })).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })

  it('none where the name is in sight', () => {
    render(<IconButton label="Log out" tooltip={false}>Log out</IconButton>)
    expect(screen.getByRole('button').parentElement!.querySelector('[role="tooltip"]')).toBeNull()
  })
})
