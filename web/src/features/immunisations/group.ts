// Next doses as visits: the doses due on one day that one product gives (a 6-in-1, MMR, Viet
// Nam's 5-in-1) read as one line naming the product, as the card and the reminder do
// (internal/immunisation/group.go, the same rule).
import type { Recommendation } from './api/types'

export interface Visit {
  /** The product that gives every dose of the visit ('' when a lone dose has none). */
  vaccine: string
  due_on: string
  doses: Recommendation[]
}

/**
 * Groups next doses (each with a due day, in the order given) into visits: within a day the
 * product that gives the most of the doses left is taken first (a stocked one before one the
 * clinic does not stock, then the one listed first); a dose sharing no product with another of
 * its day is a visit of its own. Visits by due day, then in the order of their first dose.
 */
export function groupNext(recs: Recommendation[], stocked: string[] = []): Visit[] {
  const byDay = new Map<string, Recommendation[]>()
  for (const r of recs) byDay.set(r.due_on ?? '', [...(byDay.get(r.due_on ?? '') ?? []), r])
  const out: Visit[] = []
  for (const day of [...byDay.keys()].sort()) {
    let left = byDay.get(day) ?? []
    while (left.length > 0) {
      const products: string[] = []
      for (const r of left) for (const v of r.vaccines) if (!products.includes(v)) products.push(v)
      let best = ''
      let bestN = 0
      let bestStocked = false
      for (const p of products) {
        const n = left.filter((r) => r.vaccines.includes(p)).length
        const s = stocked.includes(p)
        if (best === '' || (s && !bestStocked) || (s === bestStocked && n > bestN)) [best, bestN, bestStocked] = [p, n, s]
      }
      const takes = (r: Recommendation, i: number) => (best === '' ? i === 0 : r.vaccines.includes(best))
      out.push({ vaccine: best, due_on: day, doses: left.filter(takes) })
      left = left.filter((r, i) => !takes(r, i))
    }
  }
  return out
}
