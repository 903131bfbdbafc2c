// @vitest-environment jsdom
import { act, cleanup, render } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { createDraft, useDraftError, useDraftValue, type DraftReader } from './draft'

afterEach(cleanup)

// Issue 58 item 2: a keystroke renders the field typed in, not the form around it.
describe('a field of the visit draft', () => {
  it('renders when its own value or message changes, and not when another field’s does', () => {
    const draft = createDraft({ plan: '', vitals: { weight: null as number | null } })
    const renders: Record<string, number> = {}
    // Each field counts its own renders.
    const counted = (path: string) => (renders[path] = (renders[path] ?? 0) + 1)
    function Shown({ path, d }: { path: string; d: DraftReader }) {
      counted(path)
      const value = useDraftValue(d, path)
      const error = useDraftError(d, path)
      return <output>{`${String(value)}${error ? ` (${error})` : ''}`}</output>
    }
    const { container } = render(
      <>
        <Shown path="plan" d={draft} />
        <Shown path="vitals.weight" d={draft} />
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
