// @vitest-environment jsdom
import { act, renderHook } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { useAutosave, type SaveState } from './useAutosave'

/** A save the test finishes by hand. */
function deferred() {
  let resolve!: () => void
  let reject!: (e: unknown) => void
  const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)))
  return { promise, resolve, reject }
}

function setup(opts: { enabled?: boolean; valid?: () => boolean; failed?: (e: unknown) => SaveState } = {}) {
  const saves: ReturnType<typeof deferred>[] = []
  const run = vi.fn(() => {
    if (opts.valid && !opts.valid()) return null
    const d = deferred()
    saves.push(d)
    return d.promise
  })
  const hook = renderHook(() => useAutosave({ enabled: opts.enabled ?? true, delay: 1000, initial: 'idle', run, failed: opts.failed ?? (() => 'idle') }))
  return { hook, run, saves }
}

beforeEach(() => vi.useFakeTimers())
afterEach(() => vi.useRealTimers())

describe('useAutosave', () => {
  it('saves once, a delay after the last of several changes', async () => {
    const { hook, run, saves } = setup()
    act(() => hook.result.current.changed())
    expect(hook.result.current.state).toBe('pending')
    act(() => vi.advanceTimersByTime(600))
    act(() => hook.result.current.changed())
    act(() => vi.advanceTimersByTime(600))
    expect(run).not.toHaveBeenCalled()
    act(() => vi.advanceTimersByTime(400))
    expect(run).toHaveBeenCalledTimes(1)
    expect(hook.result.current.state).toBe('saving')
    await act(async () => saves[0].resolve())
    expect(hook.result.current.state).toBe('saved')
  })

  it('never runs two saves at once: a change during a save queues exactly one more', async () => {
    const { hook, run, saves } = setup()
    act(() => hook.result.current.saveNow())
    act(() => hook.result.current.saveNow())
    act(() => hook.result.current.saveNow())
    expect(run).toHaveBeenCalledTimes(1)
    await act(async () => saves[0].resolve())
    expect(run).toHaveBeenCalledTimes(2)
    await act(async () => saves[1].resolve())
    expect(run).toHaveBeenCalledTimes(2)
    expect(hook.result.current.state).toBe('saved')
  })

  it('says invalid and sends nothing when what is typed is not valid', () => {
    const { hook, run, saves } = setup({ valid: () => false })
    act(() => hook.result.current.saveNow())
    expect(run).toHaveBeenCalledTimes(1)
    expect(saves).toHaveLength(0)
    expect(hook.result.current.state).toBe('invalid')
  })

  it('leaves the state the refusal decides', async () => {
    const { hook, saves } = setup({ failed: (e) => (e === 'stale' ? 'conflict' : 'idle') })
    act(() => hook.result.current.saveNow())
    await act(async () => saves[0].reject('stale'))
    expect(hook.result.current.state).toBe('conflict')
  })

  it('settle drops what is scheduled or queued and waits for the save on its way', async () => {
    const { hook, run, saves } = setup()
    act(() => hook.result.current.saveNow())
    act(() => hook.result.current.changed()) // queued behind the save on its way
    act(() => hook.result.current.changed())
    let settled = false
    let waiting!: Promise<void>
    act(() => {
      waiting = hook.result.current.settle().then(() => void (settled = true))
    })
    await act(async () => Promise.resolve())
    expect(settled).toBe(false)
    await act(async () => saves[0].resolve())
    await act(async () => waiting)
    expect(settled).toBe(true)
    act(() => vi.advanceTimersByTime(5000))
    expect(run).toHaveBeenCalledTimes(1)
  })

  it('leaving the page saves what is still scheduled', () => {
    const { hook, run } = setup()
    act(() => hook.result.current.changed())
    hook.unmount()
    expect(run).toHaveBeenCalledTimes(1)
  })

  it('does nothing when the form does not save itself', () => {
    const { hook, run } = setup({ enabled: false })
    act(() => hook.result.current.changed())
    act(() => vi.advanceTimersByTime(5000))
    expect(run).not.toHaveBeenCalled()
    expect(hook.result.current.state).toBe('idle')
  })
})
