import { debounce } from './debounce'

describe('debounce', () => {
  beforeEach(() => vi.useFakeTimers())
  afterEach(() => vi.useRealTimers())
  it('calls once, with the last arguments, after the wait', () => {
    const fn = vi.fn()
    const d = debounce(fn, 200)
    d(1)
    d(2)
    vi.advanceTimersByTime(199)
    expect(fn).not.toHaveBeenCalled()
    d(3)
    vi.advanceTimersByTime(200)
    expect(fn).toHaveBeenCalledTimes(1)
    expect(fn).toHaveBeenCalledWith(3)
  })
  it('can be cancelled', () => {
    const fn = vi.fn()
    const d = debounce(fn, 50)
    d()
    d.cancel()
    vi.advanceTimersByTime(100)
    expect(fn).not.toHaveBeenCalled()
  })
})
