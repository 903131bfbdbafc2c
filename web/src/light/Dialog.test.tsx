// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { Button } from './Button'
import { Dialog } from './Dialog'

function Page({ onSubmit, busy }: { onSubmit?: () => void; busy?: boolean }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Cancel appointment
      </button>
      <Dialog
        open={open}
        title="Cancel the appointment?"
        closeLabel="Close"
        onClose={() => setOpen(false)}
        onSubmit={onSubmit}
        busy={busy}
        footer={
          <>
            <Button onClick={() => setOpen(false)}>Back</Button>
            <Button type="submit" variant="danger">
              Cancel it
            </Button>
          </>
        }
      >
        <p>The patient is told by message.</p>
        <label>
          Reason <input name="reason" />
        </label>
      </Dialog>
    </>
  )
}

const openIt = () => {
  const opener = screen.getByRole('button', { name: 'Cancel appointment' })
  opener.focus()
  fireEvent.click(opener)
  return opener
}

describe('Dialog', () => {
  it('is a modal dialog named by its title, focus on its first field, Tab kept inside', async () => {
    const { container } = render(<Page onSubmit={() => {}} />)
    openIt()
    const dialog = screen.getByRole('dialog', { name: 'Cancel the appointment?' })
    expect(dialog.getAttribute('aria-modal')).toBe('true')
    const reason = screen.getByRole('textbox', { name: 'Reason' })
    expect(document.activeElement).toBe(reason)
    expect(await axeViolations(container)).toEqual([])
    const last = screen.getByRole('button', { name: 'Cancel it' })
    last.focus()
    fireEvent.keyDown(last, { key: 'Tab' })
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Close' }))
    fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: true })
    expect(document.activeElement).toBe(last)
  })

  it('submits its form by Enter in a field and by the submit button', () => {
    const onSubmit = vi.fn()
    render(<Page onSubmit={onSubmit} />)
    openIt()
    fireEvent.submit(screen.getByRole('textbox', { name: 'Reason' }))
    fireEvent.click(screen.getByRole('button', { name: 'Cancel it' }))
    expect(onSubmit).toHaveBeenCalledTimes(2)
  })

  it('closes on Escape, its close button and the mask, giving focus back', () => {
    const { container } = render(<Page />)
    const opener = openIt()
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
    fireEvent.click(opener)
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    fireEvent.click(opener)
    fireEvent.click(container.querySelector('[aria-hidden]')!)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('stays open while busy: Escape, the mask and the close button wait for the action', () => {
    const onSubmit = vi.fn()
    const { container } = render(<Page busy onSubmit={onSubmit} />)
    openIt()
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    fireEvent.click(container.querySelector('[aria-hidden]')!)
    expect(screen.getByRole('dialog').getAttribute('aria-busy')).toBe('true')
    fireEvent.click(screen.getByRole('button', { name: 'Cancel it' }))
    expect(onSubmit).not.toHaveBeenCalled()
  })
})
