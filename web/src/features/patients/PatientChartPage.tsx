import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router'
import { VisitHistory } from '../../components/VisitHistory'
import { useCan } from '../../lib/auth/can'
import { Slot } from '../../lib/slots'
import { useArchivePatient } from './api/archivePatient'
import { openWalkInBill } from './api/openWalkInBill'
import { usePatient } from './api/getPatient'
import { useViewSubject } from '../../lib/viewSubject'
import { PatientBanner } from '../../components/PatientBanner'
import { useAskReason } from '../../components/askReason'
import { useUploadPatientFile } from './api/uploadPatientFile'
import { fullName } from './api/types'
import { photoUrl } from './api/listPatientFiles'
import { Attachments, UploadButton } from './PatientFiles'
import { formatAge } from '../../lib/age'
import { ageInYears } from './age'
import { LaunchApps } from './LaunchApps'
import { formatDay } from '../../lib/time'
import { chronicLabel, civilStatusLabel, familyLabel, labelOf, sexLabel, socialLabel } from '../../lib/labels'
import { PageSkeleton } from '../../components/PageSkeleton'
import { OtherIdentifiers } from './OtherIdentifiers'
import { PortalAccess } from './PortalAccess'
import { Alert } from '../../light/Alert'
import { Button } from '../../light/Button'
import { Card } from '../../light/Card'
import { Descriptions } from '../../light/Descriptions'
import { Tag } from '../../light/Tag'
import { toast } from '../../light/Toast'
import { CalendarIcon, EditIcon, UserIcon, WalletIcon } from '../../light/icons'
import styles from './chart.module.css'

/** Where the library drew its "not found" result: the address names no such patient. */
function NotFound() {
  const { t } = useTranslation()
  return (
    <div className={styles.notFound} data-testid="patient-not-found">
      {t('patients.notFound')}
    </div>
  )
}

export default function PatientChartPage() {
  const { t } = useTranslation()
  const askReason = useAskReason()
  const navigate = useNavigate()
  const { id, pid } = useParams()
  const patient = usePatient(Number(id))
  useViewSubject(patient.data && patient.data.mrn === pid ? fullName(patient.data) : undefined)
  const canManage = useCan('manage patient')
  const canBook = useCan('manage appointment')
  const canCharge = useCan('record charges')
  const canPrescribe = useCan('write prescription')
  const canDiagnose = useCan('write diagnosis')
  const canVitals = useCan('record vitals')
  const canReadRx = canPrescribe || canDiagnose || canVitals
  // Immunisations: who records them, and the doctor and the nurse (the server's word).
  const canReadVaccines = useCan('record immunisations') || canDiagnose || canVitals
  const canReadBills = [canCharge, useCan('record payment'), useCan('view financial reports')].some(Boolean)
  const canManagePortal = useCan('manage portal')
  const photo = useUploadPatientFile(Number(id), 'photo')
  const archive = useArchivePatient(Number(id))
  const [photoBust, setPhotoBust] = useState(0)

  if (patient.isError) return <NotFound />
  if (!patient.data) return <PageSkeleton banner />
  const p = patient.data
  // The patient number in the address must be this patient's: a mismatched pair is a 404.
  if (p.mrn !== pid) return <NotFound />

  const h = p.history
  const joined = (labels: Record<string, string>, values: string[], other: string) => [...values.map((v) => t(labelOf(labels, v) ?? v)), other].filter(Boolean).join(', ') || '—'
  const askArchive = () =>
    askReason({
      title: t('patients.archiveTitle'),
      label: t('patients.archiveReason'),
      okText: t('patients.archive'),
      danger: true,
      cancelText: t('patients.cancel'),
      onOk: (reason) => archive.mutateAsync(reason).then(() => void toast.success(t('patients.archived'))),
    })

  return (
    <div className={styles.page}>
      {p.archived && <Alert type="warning" title={t('patients.archivedBanner', { reason: p.archive_reason })} />}
      <PatientBanner patient={{ ...p, ...h }} />
      <Card>
        <div className={styles.profile}>
          <div className={styles.photoColumn}>
            <div className={styles.photo}>{p.has_photo ? <img src={photoUrl(p.id, photoBust)} alt={t('patients.photoOf', { name: fullName(p) })} /> : <UserIcon />}</div>
            {canManage && !p.archived && (
              <UploadButton
                small
                accept="image/jpeg,image/png,image/webp"
                loading={photo.isPending}
                onFile={(f) =>
                  photo.mutate(f, {
                    onSuccess: () => {
                      setPhotoBust(Date.now())
                      toast.success(t('patients.uploaded'))
                    },
                  })
                }
              >
                {t('patients.uploadPhoto')}
              </UploadButton>
            )}
          </div>
          <div className={styles.details}>
            <div className={styles.titleRow}>
              <h2 className={`page-title ${styles.name}`}>
                {fullName(p)} {p.archived && <Tag>{t('patients.archivedTag')}</Tag>}
              </h2>
              <div className={styles.actions}>
                <LaunchApps patientId={p.id} />
                {canManage && !p.archived && (
                  <Button icon={<EditIcon />} onClick={() => navigate(`/masterfile/patient_form/${p.id}`)}>
                    {t('patients.edit')}
                  </Button>
                )}
                {canManage &&
                  (p.archived ? (
                    <Button onClick={() => archive.mutate(null, { onSuccess: () => toast.success(t('patients.restored')) })}>{t('patients.restore')}</Button>
                  ) : (
                    <Button variant="dangerOutline" onClick={askArchive}>
                      {t('patients.archive')}
                    </Button>
                  ))}
              </div>
            </div>
            <Descriptions
              column={{ xs: 1, sm: 2, lg: 3 }}
              items={[
                { key: 'mrn', label: t('patients.mrn'), children: p.mrn },
                { key: 'sex', label: t('patients.fields.sex'), children: t(sexLabel[p.sex]) },
                { key: 'birth', label: t('patients.fields.birth_date'), children: `${formatDay(p.birth_date)}${p.birth_date_estimated ? ' ~' : ''} (${formatAge(p.birth_date)})` },
                { key: 'phone', label: t('patients.fields.phone'), children: p.phone || '—' },
                { key: 'blood', label: t('patients.fields.blood_type'), children: p.blood_type || '—' },
                ...(p.gestation_weeks != null ? [{ key: 'gestation', label: t('patients.fields.gestation_weeks'), children: t('patients.gestationWeeks', { count: p.gestation_weeks }) }] : []),
                { key: 'civil', label: t('patients.fields.civil_status'), children: p.civil_status ? t(civilStatusLabel[p.civil_status]) : '—' },
                { key: 'email', label: t('patients.fields.email'), children: p.email || '—' },
                { key: 'address', label: t('patients.fields.address'), children: p.address || '—' },
                { key: 'created', label: t('patients.createdAt'), children: formatDay(p.created_at) },
              ]}
            />
          </div>
        </div>
      </Card>
      <div className={styles.grid}>
        <Card level={3} title={t('patients.sections.history')} className={styles.fill}>
          <Descriptions
            column={1}
            items={[
              { key: 'chronic', label: t('patients.fields.chronic'), children: joined(chronicLabel, h.chronic, h.chronic_other) },
              { key: 'adm', label: t('patients.fields.past_admissions'), children: h.past_admissions || '—' },
              { key: 'surg', label: t('patients.fields.past_surgeries'), children: h.past_surgeries || '—' },
              { key: 'family', label: t('patients.fields.family'), children: joined(familyLabel, h.family, h.family_other) },
              { key: 'smoking', label: t('patients.fields.smoking'), children: h.smoking ? t(socialLabel[h.smoking]) : '—' },
              { key: 'alcohol', label: t('patients.fields.alcohol'), children: h.alcohol ? t(socialLabel[h.alcohol]) : '—' },
              { key: 'vacc', label: t('patients.fields.vaccinations'), children: h.vaccinations || '—' },
            ]}
          />
        </Card>
        <div className={styles.column}>
          <OtherIdentifiers identifiers={p.received?.identifiers ?? []} />
          <Card level={3} title={t('patients.sections.emergency')}>
            <Descriptions
              column={1}
              items={[
                { key: 'n', label: t('patients.fields.contact_name'), children: p.emergency_contact.name || '—' },
                { key: 'r', label: t('patients.fields.contact_relation'), children: p.emergency_contact.relation || '—' },
                { key: 'p', label: t('patients.fields.contact_phone'), children: p.emergency_contact.phone || '—' },
              ]}
            />
          </Card>
          <Card
            level={3}
            title={t('patients.sections.visits')}
            extra={
              !p.archived && (
                <div className={styles.small}>
                  {canBook && (
                    <Button size="small" icon={<CalendarIcon />} onClick={() => navigate(`/appointments/appointments?book=${p.id}`)}>
                      {t('patients.bookVisit')}
                    </Button>
                  )}
                  {/* Charges without a visit (a certificate, a dressing at the desk): a bill of its own. */}
                  {canCharge && (
                    <Button size="small" icon={<WalletIcon />} onClick={() => void openWalkInBill(p.id).then((b) => navigate(`/bills/${b.id}`), () => undefined /* the app's error toast has said why */)}>
                      {t('patients.walkInBill')}
                    </Button>
                  )}
                </div>
              )
            }
          >
            <VisitHistory patientId={p.id} />
          </Card>
        </div>
      </div>
      {p.remarks && (
        <Card level={3} title={t('patients.sections.remarks')}>
          <p className={styles.remarks}>{p.remarks}</p>
        </Card>
      )}
      {canReadRx && <Slot name="patientMedicines" patientId={p.id} />}
      {canReadRx && (
        <Card level={3} title={t('rx.title')}>
          <Slot name="patientPrescriptions" patientId={p.id} />
        </Card>
      )}
      {(canVitals || canDiagnose) && ageInYears(p.birth_date) < 19 && <Slot name="patientGrowth" patientId={p.id} patientName={fullName(p)} birthDate={p.birth_date} sex={p.sex} />}
      {canReadVaccines && <Slot name="patientImmunisations" patientId={p.id} />}
      <Slot name="patientResults" patientId={p.id} />
      <Slot name="patientDocuments" patientId={p.id} />
      <Slot name="patientRelease" patientId={p.id} />
      {canReadBills && <Slot name="patientBills" patientId={p.id} />}
      {canManagePortal && <PortalAccess patientId={p.id} archived={p.archived} name={fullName(p)} />}
      <Attachments patient={p} canManage={canManage} />
    </div>
  )
}
