// The shell fills the slots where one feature shows another's part (lib/slots.tsx); each part is
// loaded on its own (the features' index files) with the screen that shows it, not with the
// shell (and never on the login page).
import { lazy, Suspense } from 'react'
import type { Slots } from '../lib/slots'
import { Spin } from '../light/Spin'
import * as charting from '../features/charting'
import * as documents from '../features/documents'
import * as fees from '../features/fees'
import * as growth from '../features/growth'
import * as prescriptions from '../features/prescriptions'
import * as release from '../features/release'
import * as results from '../features/results'

const VisitPrescriptions = lazy(prescriptions.VisitPrescriptions)
const PatientPrescriptions = lazy(prescriptions.PatientPrescriptions)
const PatientMedicines = lazy(prescriptions.PatientMedicines)
const VisitMedicines = lazy(prescriptions.VisitMedicines)
const DocumentsCard = lazy(documents.DocumentsCard)
const VisitResults = lazy(results.VisitResults)
const PatientResults = lazy(results.PatientResults)
const DashboardResults = lazy(results.DashboardResults)
const DashboardResultsLoading = lazy(results.DashboardResultsLoading)
const VisitOrderSet = lazy(charting.VisitOrderSet)
const VisitBill = lazy(fees.VisitBill)
const PatientBills = lazy(fees.PatientBills)
const PatientRelease = lazy(release.PatientRelease)
const PatientGrowth = lazy(growth.PatientGrowth)

/**
 * The parts the chart and the visit show through slots, fetched with their screen's own code
 * (app/routing/table.tsx) rather than after it has drawn: a navigation then waits for the
 * parts' data, not for their code and then their data in turn.
 */
export const chartParts = [prescriptions.PatientMedicines, prescriptions.PatientPrescriptions, growth.PatientGrowth, results.PatientResults, documents.DocumentsCard, release.PatientRelease, fees.PatientBills]
export const visitParts = [prescriptions.VisitPrescriptions, prescriptions.VisitMedicines, results.VisitResults, documents.DocumentsCard, fees.VisitBill]

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
  patientMedicines: (props) => (
    <Suspense fallback={<Spin />}>
      <PatientMedicines {...props} />
    </Suspense>
  ),
  visitMedicines: (props) => (
    <Suspense fallback={<Spin />}>
      <VisitMedicines {...props} />
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
  patientRelease: (props) => (
    <Suspense fallback={<Spin />}>
      <PatientRelease {...props} />
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
  patientGrowth: (props) => (
    <Suspense fallback={<Spin />}>
      <PatientGrowth {...props} />
    </Suspense>
  ),
  patientResults: (props) => (
    <Suspense fallback={<Spin />}>
      <PatientResults {...props} />
    </Suspense>
  ),
  dashboardResults: () => (
    <Suspense
      fallback={
        <Suspense fallback={null}>
          <DashboardResultsLoading />
        </Suspense>
      }
    >
      <DashboardResults />
    </Suspense>
  ),
  criticalAlerts: results.CriticalAlerts,
  // Loaded as a dialog opens, not with the visit: the order sets' dialogs (light, with the set's
  // safety check and dose by weight) are needed only when the doctor asks for one.
  visitOrderSet: (props) =>
    props.open ? (
      <Suspense fallback={null}>
        <VisitOrderSet {...props} />
      </Suspense>
    ) : null,
  visitBill: (props) => (
    <Suspense fallback={<Spin />}>
      <VisitBill {...props} />
    </Suspense>
  ),
}
