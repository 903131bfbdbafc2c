// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { Drawer } from './Drawer'

function Page() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Layout settings
      </button>
      <Drawer open={open} title="Layout settings" closeLabel="Close" onClose={() => setOpen(false)}>
        <p>Some words</p>
        <input aria-label="Colour" />
        <button type="button">Last</button>
      </Drawer>
    </>
  )
}

describe('Drawer', () => {
  it('is a modal dialog named by its title that takes focus and keeps Tab inside', async () => {
    const { container } = render(<Page />)
    const opener = screen.getByRole('button', { name: 'Layout settings' })
    opener.focus()
    fireEvent.click(opener)
    const dialog = screen.getByRole('dialog', { name: 'Layout settings' })
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    const close = screen.getByRole('button', { name: 'Close' })
    expect(document.activeElement).toBe(close)
    expect(await axeViolations(container)).toEqual([])
    const last = screen.getByRole('button', { name: 'Last' })
    last.focus()
    fireEvent.keyDown(last, { key: 'Tab' })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(close, { key: 'Tab', shiftKey: true })
    expect(document.activeElement).toBe(last)
  })

  it('closes on Escape, its close button and the mask, giving focus back', () => {
    const { container } = render(<Page />)
    const opener = screen.getByRole('button', { name: 'Layout settings' })
    opener.focus()
    fireEvent.click(opener)
    fireEvent.keyDown(screen.getByRole('button', { name: 'Close' }), { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
    fireEvent.click(opener)
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    fireEvent.click(opener)
    fireEvent.click(container.querySelector('[aria-hidden]')!)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('closes on Escape after a click on its words, which leaves focus on no control', () => {
    render(<Page />)
    const opener = screen.getByRole('button', { name: 'Layout settings' })
    opener.focus()
    fireEvent.click(opener)
    const words = screen.getByText('Some words')
    fireEvent.pointerDown(words)
    ;(document.activeElement as HTMLElement).blur()
    expect(document.activeElement).toBe(document.body)
    fireEvent.keyDown(document.body, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
  })
})
