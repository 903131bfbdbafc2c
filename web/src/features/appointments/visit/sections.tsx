// The sections of the visit's form, each reading the visit and its saving from
// VisitFormProvider; the cards they show stay plain components of their props.
import { Slot } from '../../../lib/slots'
import { DiagnosesCard } from './DiagnosesCard'
import { FindingFields } from './FindingsCard'
import { OrdersCard } from './OrdersCard'
import { PlanCard } from './PlanCard'
import { useVisitForm } from './VisitFormProvider'
import { VitalsCard } from './VitalsCard'

/** The vitals: written in a draft, an amendment, or by a nurse in the vitals mode. */
export function VitalsSection() {
  const { ro, mode, visit, saving } = useVisitForm()
  return <VitalsCard disabled={ro && mode !== 'vitals'} bands={visit.vital_bands} flags={saving.savedVitals.flags} saved={saving.savedVitals.vitals} />
}

// The findings' fields of each section, one array each: the cards are memoised on their props.
const COMPLAINT = ['chief_complaint', 'present_illness'] as const
const EXAMINATION = ['examination'] as const

/** The chief complaint and the history of present illness. */
export function ComplaintSection() {
  const { ro, aids } = useVisitForm()
  return <FindingFields fields={COMPLAINT} disabled={ro} aids={aids} />
}

/** The physical examination. */
export function ExaminationSection() {
  const { ro, aids } = useVisitForm()
  return <FindingFields fields={EXAMINATION} disabled={ro} aids={aids} />
}

export function DiagnosesSection() {
  const { ro, labels, labelled, saving } = useVisitForm()
  return <DiagnosesCard disabled={ro} labels={labels} labelled={labelled} onChange={saving.changed} />
}

export function OrdersSection() {
  const { ro, labTests, visit, saving } = useVisitForm()
  return <OrdersCard disabled={ro} tests={labTests} ordered={visit.orders} onChange={saving.changed} />
}

/** The plan and the follow-up date. */
export function PlanSection() {
  const { ro, a, visit, aids } = useVisitForm()
  return <PlanCard disabled={ro} day={a.day} followUp={visit.follow_up} aids={aids} />
}

/** Whether the visit's appointment was called off: its prescriptions, bill and documents are closed. */
export const closedOf = (status: string) => status === 'cancelled' || status === 'no-show'

/** The visit's prescriptions (the prescriptions feature's, through the app's slot). */
export function PrescriptionsSection() {
  const { a } = useVisitForm()
  return <Slot name="visitPrescriptions" appointmentId={a.id} closed={closedOf(a.status)} />
}
