import { PrescriptionList } from './PrescriptionList'

/** A patient's prescriptions, read-only, as the chart shows them. */
export function PatientPrescriptions({ patientId }: { patientId: number }) {
  return <PrescriptionList owner={{ patientId }} canWrite={false} />
}
