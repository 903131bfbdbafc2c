import { describe, expect, it, vi } from 'vitest'
import { ApiError } from './api'
import { showFieldErrors } from './formErrors'

describe('showFieldErrors', () => {
  it('puts every message of a field under it, and says those of fields the form lacks as a toast', () => {
    const fail = vi.fn((found: Record<string, string>) => Object.keys(found).filter((k) => k !== 'amount').map((k) => found[k]))
    const toast = vi.fn()
    showFieldErrors(new ApiError(422, 'Check the fields.', 'validation', { amount: ['Too much.', 'Not a number.'], drawer_id: ['Your drawer is closed.'] }), fail, toast)
    expect(fail).toHaveBeenCalledWith({ amount: 'Too much. Not a number.', drawer_id: 'Your drawer is closed.' })
    expect(toast).toHaveBeenCalledWith('Your drawer is closed.')
  })

  it('says a refusal that names no field as a toast', () => {
    const toast = vi.fn()
    showFieldErrors(new ApiError(409, 'Someone else changed this bill.', 'error.conflict'), vi.fn(), toast)
    expect(toast).toHaveBeenCalledWith('Someone else changed this bill.')
  })
})
