// The sections of the visit's form, each reading the visit and its saving from
// VisitFormProvider; the cards they show stay plain components of their props.
import dayjs from 'dayjs'
import { Slot } from '../../../lib/slots'
import { DiagnosesCard } from './DiagnosesCard'
import { FindingFields } from './FindingsCard'
import { OrdersCard } from './OrdersCard'
import { PlanCard } from './PlanCard'
import { useVisitForm } from './VisitFormProvider'
import { VitalsCard } from './VitalsCard'

/** Head circumference is asked of children under 5 (the WHO standards' span), and shown whenever one was recorded. */
const HEAD_UNTIL_YEARS = 5

/** The vitals: written in a draft, an amendment, or by a nurse in the vitals mode. */
export function VitalsSection() {
  const { a, ro, mode, visit, saving } = useVisitForm()
  const young = !!a.patient?.birth_date && dayjs(a.day).diff(dayjs(a.patient.birth_date), 'year') < HEAD_UNTIL_YEARS
  const head = young || saving.savedVitals.vitals.head_circumference != null
  return <VitalsCard disabled={ro && mode !== 'vitals'} bands={visit.vital_bands} flags={saving.savedVitals.flags} saved={saving.savedVitals.vitals} head={head} />
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
