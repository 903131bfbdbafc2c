// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { initI18n } from '../lib/i18n'
import { axeViolations } from '../test/axe'
import { useAskReason } from './askReason'

// The dialog has a root of its own, which the test library's cleanup does not know: closed here.
afterEach(async () => {
  for (const close of screen.queryAllByRole('button', { name: 'Close' })) fireEvent.click(close)
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  cleanup()
})

function Archive({ onOk }: { onOk: (reason: string) => Promise<unknown> }) {
  const ask = useAskReason()
  return (
    <button type="button" onClick={() => ask({ title: 'Archive this patient?', label: 'Reason', help: 'The record is kept.', okText: 'Archive', cancelText: 'Cancel', danger: true, onOk })}>
      Archive
    </button>
  )
}

const open = async (onOk: (reason: string) => Promise<unknown>) => {
  await initI18n('en')
  render(<Archive onOk={onOk} />)
  const opener = screen.getByRole('button', { name: 'Archive' })
  opener.focus()
  fireEvent.click(opener)
  const dialog = await screen.findByRole('dialog', { name: 'Archive this patient?' })
  return { opener, dialog }
}

describe('useAskReason', () => {
  it('starts in the reason, keeps the action off until a reason is typed, and passes axe', async () => {
    const onOk = vi.fn(() => Promise.resolve())
    const { dialog } = await open(onOk)
    const reason = screen.getByRole('textbox', { name: 'Reason' })
    await waitFor(() => expect(document.activeElement).toBe(reason))
    expect(dialog.textContent).toContain('The record is kept.')
    const ok = screen.getAllByRole('button', { name: 'Archive' }).find((b) => dialog.contains(b))!
    expect(ok.hasAttribute('disabled')).toBe(true)
    fireEvent.input(reason, { target: { value: '   ' } })
    expect(ok.hasAttribute('disabled')).toBe(true)
    fireEvent.input(reason, { target: { value: '  Moved to another city ' } })
    expect(ok.hasAttribute('disabled')).toBe(false)
    expect(await axeViolations(dialog)).toEqual([])
  })

  it('sends the trimmed reason, closes and gives focus back to what opened it', async () => {
    const onOk = vi.fn(() => Promise.resolve())
    const { opener, dialog } = await open(onOk)
    fireEvent.input(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: '  Moved to another city ' } })
    fireEvent.click(screen.getAllByRole('button', { name: 'Archive' }).find((b) => dialog.contains(b))!)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(onOk).toHaveBeenCalledWith('Moved to another city')
    expect(document.activeElement).toBe(opener)
  })

  it('closes when the action fails (the API client has said why), and on Escape without acting', async () => {
    const failing = vi.fn(() => Promise.reject(new Error('HTTP 409')))
    const first = await open(failing)
    fireEvent.input(screen.getByRole('textbox', { name: 'Reason' }), { target: { value: 'Twice' } })
    fireEvent.click(screen.getAllByRole('button', { name: 'Archive' }).find((b) => first.dialog.contains(b))!)
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(failing).toHaveBeenCalledWith('Twice')
    cleanup()
    const onOk = vi.fn(() => Promise.resolve())
    const second = await open(onOk)
    fireEvent.keyDown(screen.getByRole('textbox', { name: 'Reason' }), { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(onOk).not.toHaveBeenCalled()
    expect(document.activeElement).toBe(second.opener)
  })

  it('keeps Tab inside the dialog', async () => {
    const { dialog } = await open(() => Promise.resolve())
    const reason = screen.getByRole('textbox', { name: 'Reason' })
    fireEvent.input(reason, { target: { value: 'Why' } })
    const buttons = [...dialog.querySelectorAll('button')]
    const last = buttons[buttons.length - 1]
    last.focus()
    fireEvent.keyDown(last, { key: 'Tab' })
    expect(dialog.contains(document.activeElement)).toBe(true)
  })
})
