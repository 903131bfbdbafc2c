// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react'
import { useEffect, useId, useRef, useState } from 'react'
import { createRoot } from 'react-dom/client'
import { IdScope } from './reactSemantics'
import { afterEach, describe, expect, it } from 'vitest'

afterEach(cleanup)

// ADR 48: what React did that the code relies on, under Preact.
describe('React semantics under Preact', () => {
  it('gives a text field its value back when its handler refused a keystroke, and keeps one it took', async () => {
    const kept = { value: '' }
    function Quantity() {
      const [value, setValue] = useState('1')
      useEffect(() => void (kept.value = value), [value])
      return <input aria-label="Quantity" value={value} onChange={(e) => /^\d*$/.test(e.target.value) && setValue(e.target.value)} />
    }
    render(<Quantity />)
    const field = screen.getByRole('textbox', { name: 'Quantity' }) as HTMLInputElement
    fireEvent.input(field, { target: { value: '1O' } })
    await waitFor(() => expect(field.value).toBe('1'))
    expect(kept.value).toBe('1')
    fireEvent.input(field, { target: { value: '12' } })
    await waitFor(() => expect(kept.value).toBe('12'))
    await Promise.resolve()
    expect(field.value).toBe('12')
  })

  it('runs the effects of a render before the next event, where the render came with data and not in a test’s act', async () => {
    const heard: string[] = []
    function Late() {
      const [ready, setReady] = useState(false)
      const handler = useRef<() => void>(undefined)
      // The data arrives outside any event (a timer here, an answer from the server in the app).
      useEffect(() => void setTimeout(() => setReady(true), 0), [])
      // The field's handler is subscribed in an effect, as the visit's draft subscribes its autosave.
      useEffect(() => {
        handler.current = ready ? () => heard.push('saved') : undefined
      }, [ready])
      return ready ? <input aria-label="Late" onInput={() => handler.current?.()} /> : null
    }
    // Watched without the test library, whose queries run pending effects (its act) as they look.
    const shown = new Promise<Element>((resolve) => {
      const watch = new MutationObserver(() => {
        const el = document.querySelector('input[aria-label="Late"]')
        if (!el) return
        watch.disconnect()
        // The next task: the next event a user could give, well before the next frame.
        setTimeout(() => resolve(el), 0)
      })
      watch.observe(document.body, { childList: true, subtree: true })
    })
    render(<Late />)
    const field = await shown
    field.dispatchEvent(new Event('input', { bubbles: true }))
    expect(heard).toEqual(['saved'])
  })

  it('numbers the ids of a root of its own apart from the app’s, inside an IdScope', async () => {
    function Named() {
      return <span data-testid="named" id={useId()} />
    }
    render(<Named />)
    const host = document.body.appendChild(document.createElement('div'))
    const root = createRoot(host)
    root.render(
      <IdScope>
        <Named />
      </IdScope>,
    )
    await waitFor(() => expect(screen.getAllByTestId('named')).toHaveLength(2))
    const [a, b] = screen.getAllByTestId('named').map((e) => e.id)
    expect(a).not.toBe(b)
    root.unmount()
    host.remove()
  })
})
