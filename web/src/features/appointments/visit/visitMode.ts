/** What the diagnosis form lets its user do now. */
export type VisitMode = 'draft' | 'vitals' | 'amend' | 'read'

/**
 * The form's mode: a signed visit is read (or amended, once a doctor chooses to); a doctor
 * writes the draft of a visit in progress or completed; a nurse records vitals once the
 * patient has arrived, until the visit is completed; anyone else reads.
 */
export function visitMode(v: { signed: boolean; amending: boolean; canDiagnose: boolean; canVitals: boolean; status: string }): VisitMode {
  if (v.signed) return v.amending ? 'amend' : 'read'
  if (v.canDiagnose && (v.status === 'in-progress' || v.status === 'completed')) return 'draft'
  if (v.canVitals && (v.status === 'arrived' || v.status === 'in-progress')) return 'vitals'
  return 'read'
}
