import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { PageSkeleton } from '../../components/PageSkeleton'
import { ApiError } from '../../lib/api'
import { fullName } from '../../lib/patient'
import { useViewSubject } from '../../lib/viewSubject'
import { SafetyIcon, SearchIcon } from '../../light/icons'
import { useAppointment, useListedPatientId } from './api/getAppointment'
import { usePatientHead } from './api/getPatientHead'
import { useVisit } from './api/getVisit'
import { VisitForm } from './visit/VisitForm'
import { VisitFormProvider } from './visit/VisitFormProvider'
import styles from './visit/parts.module.css'

/** /appointments/form/{id}: the visit's diagnosis form. */
export default function DiagnosisPage() {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const appointment = useAppointment(id)
  const visit = useVisit(id)
  // The banner's facts (allergies, history) come with the form, not after it, so it does not jump;
  // read beside the appointment where the queue already showed whose it is, not after it. The
  // form waits for the appointment read now (its status decides what may be typed).
  const listed = useListedPatientId(id)
  const patient = usePatientHead(appointment.data?.patient_id ?? listed)
  useViewSubject(appointment.data ? fullName(appointment.data.patient) : undefined)
  const error = appointment.error ?? visit.error
  if (error) {
    const forbidden = error instanceof ApiError && error.status === 403
    // The library's result, light: its picture (a shield, a search) over why the visit is not shown.
    return (
      <div className={styles.result} data-status={forbidden ? '403' : '404'}>
        <span className={styles.resultIcon} aria-hidden>
          {forbidden ? <SafetyIcon /> : <SearchIcon />}
        </span>
        <p className={styles.resultText}>{forbidden ? t('visit.forbidden') : t('visit.notFound')}</p>
      </div>
    )
  }
  if (!appointment.data || !visit.data || patient.isPending) return <PageSkeleton banner />
  return (
    <VisitFormProvider key={id} a={appointment.data} visit={visit.data}>
      <VisitForm />
    </VisitFormProvider>
  )
}
