// @vitest-environment jsdom
import { act, render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { createStore } from './store'

describe('createStore', () => {
  it('renders its readers again when set, and not for the same value', () => {
    const store = createStore(0)
    let renders = 0
    function Reader() {
      renders++
      return <output>{store.use()}</output>
    }
    render(<Reader />)
    expect(screen.getByRole('status').textContent).toBe('0')
    act(() => store.set(2))
    expect(screen.getByRole('status').textContent).toBe('2')
    expect(store.get()).toBe(2)
    const before = renders
    act(() => store.set(2))
    expect(renders).toBe(before)
  })
})
