// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { Button } from './Button'
import { Combobox } from './Combobox'
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

  it('sends nothing on Enter in a field when told so (a money dialog): only its OK button sends', () => {
    const onSubmit = vi.fn()
    function Money() {
      return (
        <Dialog open title="Discount" closeLabel="Close" onClose={() => {}} onSubmit={onSubmit} enterSubmits={false} footer={<Button type="submit">Save</Button>}>
          <label>
            Percent <input name="percent" />
          </label>
        </Dialog>
      )
    }
    render(<Money />)
    const field = screen.getByRole('textbox', { name: 'Percent' })
    const enter = new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true })
    field.dispatchEvent(enter)
    expect(enter.defaultPrevented).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(onSubmit).toHaveBeenCalledTimes(1)
  })

  it('stays open when Escape closes a list inside it (the service search), and closes on the next', () => {
    const onClose = vi.fn()
    render(
      <Dialog open title="Add charge" closeLabel="Close" onClose={onClose}>
        <Combobox field label="Service" query="" onQueryChange={() => {}} options={[{ value: '1', label: 'Consultation' }]} onChoose={() => {}} />
      </Dialog>,
    )
    const box = screen.getByRole('combobox', { name: 'Service' })
    fireEvent.click(box)
    expect(box.getAttribute('aria-expanded')).toBe('true')
    fireEvent.keyDown(box, { key: 'Escape' })
    expect(box.getAttribute('aria-expanded')).toBe('false')
    expect(onClose).not.toHaveBeenCalled()
    fireEvent.keyDown(box, { key: 'Escape' })
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('closes on Escape, its close button and the mask, giving focus back', () => {
    render(<Page />)
    const opener = openIt()
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
    fireEvent.click(opener)
    fireEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    fireEvent.click(opener)
    fireEvent.click(screen.getByRole('dialog').previousElementSibling!)
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('stays open while busy: Escape, the mask and the close button wait for the action', () => {
    const onSubmit = vi.fn()
    render(<Page busy onSubmit={onSubmit} />)
    openIt()
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    fireEvent.click(screen.getByRole('dialog').previousElementSibling!)
    expect(screen.getByRole('dialog').getAttribute('aria-busy')).toBe('true')
    fireEvent.click(screen.getByRole('button', { name: 'Cancel it' }))
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('stays open on a click on the mask when maskClosable is false, and closes on Escape', () => {
    const onClose = vi.fn()
    render(
      <Dialog open title="Critical result" closeLabel="Close" onClose={onClose} maskClosable={false}>
        <p>Potassium 6.8</p>
      </Dialog>,
    )
    fireEvent.click(screen.getByRole('dialog').previousElementSibling!)
    expect(onClose).not.toHaveBeenCalled()
    fireEvent.keyDown(document.body, { key: 'Escape' })
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  // The review of the critical results' dialog (2026-11-30): one opening over another (a
  // critical result arriving while a visit's dialog is open) is drawn on top, and one Escape
  // closes it alone, the one beneath keeping what was typed; nor does Escape close the one
  // beneath while the top one is sending.
  it('stacks dialogs in the order they opened: the last on top, Escape closing it alone', () => {
    const closed: string[] = []
    function Two({ busy = false }: { busy?: boolean }) {
      const [page, setPage] = useState(true)
      const [alert, setAlert] = useState(false)
      return (
        <>
          <Dialog open={alert} title="Critical result" closeLabel="Close" busy={busy} onClose={() => (closed.push('alert'), setAlert(false))}>
            <p>K 6.9</p>
          </Dialog>
          <Dialog open={page} title="Apply an order set" closeLabel="Close" onClose={() => (closed.push('page'), setPage(false))}>
            <button type="button" onClick={() => setAlert(true)}>
              arrive
            </button>
          </Dialog>
        </>
      )
    }
    const { unmount } = render(<Two />)
    fireEvent.click(screen.getByRole('button', { name: 'arrive' }))
    const layer = (name: string) => Number((screen.getByRole('dialog', { name }).parentElement as HTMLElement).style.zIndex)
    expect(layer('Critical result')).toBeGreaterThan(layer('Apply an order set'))
    fireEvent.keyDown(document.body, { key: 'Escape' })
    expect(closed).toEqual(['alert'])
    expect(screen.getByRole('dialog', { name: 'Apply an order set' })).toBeTruthy()
    fireEvent.keyDown(document.body, { key: 'Escape' })
    expect(closed).toEqual(['alert', 'page'])
    unmount()
    closed.length = 0
    render(<Two busy />)
    fireEvent.click(screen.getByRole('button', { name: 'arrive' }))
    fireEvent.keyDown(document.body, { key: 'Escape' })
    expect(closed).toEqual([])
    expect(screen.getAllByRole('dialog')).toHaveLength(2)
  })

  it('sent by its button only: Enter on a choice (a radio) sends nothing, as Enter in a field does not', () => {
    const onSubmit = vi.fn()
    render(
      <Dialog open title="Critical result" closeLabel="Close" onClose={() => {}} onSubmit={onSubmit} enterSubmits={false} footer={<Button type="submit">Acknowledge</Button>}>
        <label>
          <input type="radio" name="how" value="phone" /> By phone
        </label>
      </Dialog>,
    )
    const radio = screen.getByRole('radio', { name: 'By phone' })
    expect(fireEvent.keyDown(radio, { key: 'Enter' })).toBe(false)
    expect(onSubmit).not.toHaveBeenCalled()
  })
})
