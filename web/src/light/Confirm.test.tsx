// @vitest-environment jsdom
import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { Confirm } from './Confirm'

function Finalise({ onOk }: { onOk: () => Promise<void> }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        Finalise
      </button>
      <Confirm
        open={open}
        title="Finalise the bill?"
        content="It gets its number."
        okText="Finalise"
        cancelText="Cancel"
        closeLabel="Close"
        onCancel={() => setOpen(false)}
        onOk={async () => {
          await onOk()
          setOpen(false)
        }}
      />
    </>
  )
}

describe('Confirm', () => {
  it('asks in an alert dialog named by its question, held while OK runs, and passes axe', async () => {
    let done = () => {}
    const onOk = vi.fn(() => new Promise<void>((r) => (done = r)))
    const { container } = render(<Finalise onOk={onOk} />)
    fireEvent.click(screen.getByRole('button', { name: 'Finalise' }))
    const ask = screen.getByRole('alertdialog', { name: 'Finalise the bill?' })
    expect(ask.textContent).toContain('It gets its number.')
    expect(await axeViolations(container)).toEqual([])
    fireEvent.click(screen.getAllByRole('button', { name: 'Finalise' }).at(-1)!)
    expect(onOk).toHaveBeenCalledOnce()
    await waitFor(() => expect(ask.getAttribute('aria-busy')).toBe('true'))
    done()
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull())
  })

  it('opens with focus on Cancel, so that Enter changes nothing', () => {
    const onOk = vi.fn(async () => {})
    render(<Finalise onOk={onOk} />)
    fireEvent.click(screen.getByRole('button', { name: 'Finalise' }))
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Cancel' }))
  })

  it('does nothing on Cancel', () => {
    const onOk = vi.fn(async () => {})
    render(<Finalise onOk={onOk} />)
    fireEvent.click(screen.getByRole('button', { name: 'Finalise' }))
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('alertdialog')).toBeNull()
    expect(onOk).not.toHaveBeenCalled()
  })
})
