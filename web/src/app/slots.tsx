// The shell fills the slots where one feature shows another's part (lib/slots.tsx); each part is
// loaded on its own (the features' index files) with the screen that shows it, not with the
// shell (and never on the login page).
import { Card, Col, Skeleton, Spin } from 'antd'
import { lazy, Suspense } from 'react'
import { useCan } from '../lib/auth/can'
import type { Slots } from '../lib/slots'
import * as charting from '../features/charting'
import * as documents from '../features/documents'
import * as fees from '../features/fees'
import * as prescriptions from '../features/prescriptions'
import * as results from '../features/results'

/**
 * The dashboard's results figures (two cards, for those who review results) hold their places in
 * the row while their code loads, so the cards after them do not jump to the next row.
 */
function ResultsFiguresLoading() {
  const can = useCan('review results')
  if (!can) return null
  return [0, 1].map((i) => (
    <Col key={i} xs={12} md={8} xl={4}>
      <Card size="small" style={{ height: '100%' }}>
        <Skeleton active title={{ width: '70%' }} paragraph={{ rows: 1, width: '40%' }} />
      </Card>
    </Col>
  ))
}

const VisitPrescriptions = lazy(prescriptions.VisitPrescriptions)
const PatientPrescriptions = lazy(prescriptions.PatientPrescriptions)
const DocumentsCard = lazy(documents.DocumentsCard)
const VisitResults = lazy(results.VisitResults)
const PatientResults = lazy(results.PatientResults)
const DashboardResults = lazy(results.DashboardResults)
const CriticalAlerts = lazy(results.CriticalAlerts)
const VisitOrderSet = lazy(charting.VisitOrderSet)
const VisitBill = lazy(fees.VisitBill)
const PatientBills = lazy(fees.PatientBills)

export const slots: Slots = {
  visitPrescriptions: (props) => (
    <Suspense fallback={<Spin />}>
      <VisitPrescriptions {...props} />
    </Suspense>
  ),
  patientPrescriptions: (props) => (
    <Suspense fallback={<Spin />}>
      <PatientPrescriptions {...props} />
    </Suspense>
  ),
  visitDocuments: (props) => (
    <Suspense fallback={<Spin />}>
      <DocumentsCard {...props} />
    </Suspense>
  ),
  patientDocuments: (props) => (
    <Suspense fallback={<Spin />}>
      <DocumentsCard {...props} />
    </Suspense>
  ),
  patientBills: (props) => (
    <Suspense fallback={<Spin />}>
      <PatientBills {...props} />
    </Suspense>
  ),
  visitResults: (props) => (
    <Suspense fallback={<Spin />}>
      <VisitResults {...props} />
    </Suspense>
  ),
  patientResults: (props) => (
    <Suspense fallback={<Spin />}>
      <PatientResults {...props} />
    </Suspense>
  ),
  dashboardResults: () => (
    <Suspense fallback={<ResultsFiguresLoading />}>
      <DashboardResults />
    </Suspense>
  ),
  criticalAlerts: () => (
    <Suspense fallback={null}>
      <CriticalAlerts />
    </Suspense>
  ),
  visitOrderSet: (props) => (
    <Suspense fallback={null}>
      <VisitOrderSet {...props} />
    </Suspense>
  ),
  visitBill: (props) => (
    <Suspense fallback={<Spin />}>
      <VisitBill {...props} />
    </Suspense>
  ),
}
