import type { Visit, VisitContent } from '../api/types'
import { emptyVitals } from '../vitals'

/** What the form edits of a stored visit. */
export const contentOf = (v: Visit): VisitContent => ({
  vitals: { ...emptyVitals(), ...v.vitals },
  vitals_copied_from: v.vitals_copied_from,
  chief_complaint: v.chief_complaint,
  present_illness: v.present_illness,
  examination: v.examination,
  // The key goes back with its diagnosis, so an edited one stays the same record elsewhere.
  diagnoses: v.diagnoses.map(({ code, text, primary, key }) => ({ code, text, primary, ...(key ? { key } : {}) })),
  orders: v.orders,
  plan: v.plan,
  follow_up_date: v.follow_up_date,
})

/**
 * What the form sends of what is typed: rows still empty (just added) are left out, and
 * `rows` says which form row each sent diagnosis is, `orderRows` each sent order (so the
 * server's "diagnoses.0" and "orders.0" errors land on the right row).
 */
export function sendable(loaded: VisitContent, typed: Partial<VisitContent>): { content: VisitContent; rows: number[]; orderRows: number[] } {
  const diagnoses = (typed.diagnoses ?? [])
    .map((d, row) => ({ row, d: { code: d?.code ?? '', text: (d?.text ?? '').trim(), primary: Boolean(d?.primary), ...(d?.key ? { key: d.key } : {}) } }))
    .filter(({ d }) => d.code || d.text)
  const orders = (typed.orders ?? []).map((o, row) => ({ row, o: { code: o?.code ?? '', note: o?.note ?? '' } })).filter(({ o }) => o.code)
  return {
    content: {
      ...loaded,
      ...typed,
      vitals: { ...emptyVitals(), ...typed.vitals },
      diagnoses: diagnoses.map((r) => r.d),
      orders: orders.map((r) => r.o),
    },
    rows: diagnoses.map((r) => r.row),
    orderRows: orders.map((r) => r.row),
  }
}
