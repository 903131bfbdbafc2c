// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react'
import { Profiler } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { createDraft, useDraftError, useDraftValue, type DraftReader } from './draft'

afterEach(cleanup)

// Issue 58 item 2: a keystroke renders the field typed in, not the form around it.
describe('a field of the visit draft', () => {
  it('renders when its own value or message changes, and not when another field’s does', () => {
    const draft = createDraft({ plan: '', vitals: { weight: null as number | null } })
    const renders: Record<string, number> = {}
    // Profiler tells each commit in which its field rendered.
    const counted = (path: string) => (renders[path] = (renders[path] ?? 0) + 1)
    function Shown({ path, d }: { path: string; d: DraftReader }) {
      const value = useDraftValue(d, path)
      const error = useDraftError(d, path)
      return <output>{`${String(value)}${error ? ` (${error})` : ''}`}</output>
    }
    const { container } = render(
      <>
        <Profiler id="plan" onRender={counted}>
          <Shown path="plan" d={draft} />
        </Profiler>
        <Profiler id="vitals.weight" onRender={counted}>
          <Shown path="vitals.weight" d={draft} />
        </Profiler>
      </>,
    )
    act(() => draft.set('plan', 'R'))
    act(() => draft.set('plan', 'Re'))
    act(() => draft.set('plan', 'Rest'))
    expect(renders).toEqual({ plan: 4, 'vitals.weight': 1 })
    act(() => draft.setErrors([{ path: 'vitals.weight', errors: ['Out of range'] }]))
    expect(renders).toEqual({ plan: 4, 'vitals.weight': 2 })
    expect(container.textContent).toBe('Restnull (Out of range)')
  })
})
