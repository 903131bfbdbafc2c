import { describe, expect, it } from 'vitest'
import type { Bill } from '../api/types'
import { cashBack, lineShare } from './dialogs'

/** 500.00 consultation and 350.50 dressing, 20 % off for a senior: 680.40, of which paid is given. */
const bill = (paid: number, payments: Partial<Bill['payments'][number]>[] = []) =>
  ({ subtotal: 85050, discount: 17010, total: 68040, paid, credited: 0, payments }) as unknown as Bill

describe('a refund for a service not given (issue 55, major 3)', () => {
  it("offers a line's share after the bill's own discount, less what was credited on it", () => {
    expect(lineShare(bill(0), 2, 35050)).toBe(28040)
    expect(lineShare(bill(0, [{ line_id: 2, credit: 10000 }]), 2, 35050)).toBe(18040)
  })

  it('gives cash back only for what was paid beyond the new total', () => {
    expect(cashBack(bill(0), 28040)).toBe(0)
    expect(cashBack(bill(30000), 28040)).toBe(0)
    expect(cashBack(bill(68040), 28040)).toBe(28040)
    expect(cashBack(bill(50000), 28040)).toBe(10000)
  })
})
