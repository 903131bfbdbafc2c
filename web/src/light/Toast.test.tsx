// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { toast, TOAST_MS, ToastProvider, ToastRegion, useToast } from './Toast'

function Buttons() {
  const toast = useToast()
  return (
    <>
      <button type="button" onClick={() => toast.success('Theme has been changed!', { key: 'theme' })}>
        theme
      </button>
      <button type="button" onClick={() => toast.warning('No full screen')}>
        warn
      </button>
    </>
  )
}

describe('Toast', () => {
  afterEach(() => vi.useRealTimers())

  it('shows messages in a polite status region, one per key', async () => {
    const { container } = render(
      <ToastProvider>
        <Buttons />
      </ToastProvider>,
    )
    const region = screen.getByRole('status')
    expect(region.getAttribute('aria-live')).toBe('polite')
    fireEvent.click(screen.getByRole('button', { name: 'theme' }))
    fireEvent.click(screen.getByRole('button', { name: 'theme' }))
    fireEvent.click(screen.getByRole('button', { name: 'warn' }))
    expect(region.textContent).toContain('No full screen')
    expect(screen.getAllByText('Theme has been changed!')).toHaveLength(1)
    expect(await axeViolations(container)).toEqual([])
  })

  it('lets a message go after a few seconds', () => {
    vi.useFakeTimers()
    render(
      <ToastProvider>
        <Buttons />
      </ToastProvider>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'warn' }))
    expect(screen.getByRole('status').textContent).toContain('No full screen')
    act(() => vi.advanceTimersByTime(TOAST_MS + 10))
    expect(screen.getByRole('status').textContent).toBe('')
  })

  it('stays while the pointer is on it, and goes the full time after it leaves', () => {
    vi.useFakeTimers()
    render(
      <ToastProvider>
        <Buttons />
      </ToastProvider>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'warn' }))
    expect(TOAST_MS).toBeGreaterThanOrEqual(5000)
    act(() => vi.advanceTimersByTime(1000))
    const toast = screen.getByText('No full screen')
    fireEvent.pointerEnter(toast)
    act(() => vi.advanceTimersByTime(TOAST_MS * 3))
    expect(screen.getByRole('status').textContent).toContain('No full screen')
    fireEvent.pointerLeave(toast)
    act(() => vi.advanceTimersByTime(TOAST_MS - 1000 - 10))
    expect(screen.getByRole('status').textContent).toContain('No full screen')
    act(() => vi.advanceTimersByTime(20))
    expect(screen.getByRole('status').textContent).toBe('')
  })

  it('takes a toast raised outside React (a failed API call) into the one region, which outlives the screen', () => {
    const { rerender } = render(
      <>
        <Buttons />
        <ToastRegion />
      </>,
    )
    act(() => toast.error('The server did not answer.'))
    rerender(<ToastRegion />)
    expect(screen.getByRole('status').textContent).toContain('The server did not answer.')
  })
})
