import dayjs from 'dayjs'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { appointmentTypeLabel } from '../../../lib/labels'
import { fullName } from '../../../lib/patient'
import { formatDayTime } from '../../../lib/time'
import { Card } from '../../../light/Card'
import { Descriptions } from '../../../light/Descriptions'
import { CheckCircleIcon } from '../../../light/icons'
import { Tag } from '../../../light/Tag'
import { chartOf, type Appointment, type Visit } from '../api/types'
import { StatusTag } from '../StatusTag'
import type { SaveState } from './useAutosave'
import styles from './parts.module.css'

/** The visit's head: the patient, the appointment's status and details, where saving stands (quiet when read-only), the actions. */
export function VisitHeader({ a, visit, state, savedAt, quiet, actions }: { a: Appointment; visit: Visit; state: SaveState; savedAt: string | null; quiet: boolean; actions: ReactNode }) {
  const { t } = useTranslation()
  const signed = visit.status === 'signed'
  const status: Record<SaveState, string> = {
    idle: quiet ? '' : t('visit.stateIdle'),
    pending: t('visit.statePending'),
    saving: t('visit.stateSaving'),
    saved: savedAt ? t('visit.stateSaved', { time: dayjs(savedAt).format('HH:mm:ss') }) : '',
    invalid: t('visit.stateInvalid'),
    conflict: t('visit.stateConflict'),
  }
  return (
    <Card>
      <div className={styles.headRow}>
        <div className={styles.who}>
          <h2 className={`page-title ${styles.title}`}>
            <Link to={chartOf(a)}>{fullName(a.patient)}</Link> <span className={styles.mrn}>{a.patient.mrn}</span>
          </h2>
          <div className={styles.tags}>
            <StatusTag status={a.status} />
            {signed ? (
              <Tag color="cyan" icon={<CheckCircleIcon />}>
                {t('visit.signedBy', { name: visit.signed_by, time: formatDayTime(visit.signed_at ?? '') })}
              </Tag>
            ) : (
              visit.version > 0 && <Tag>{t('visit.draft')}</Tag>
            )}
            {visit.amendments.length > 0 && <Tag color="orange">{t('visit.amendedTag', { count: visit.amendments.length })}</Tag>}
          </div>
        </div>
        <div className={styles.actions}>
          {status[state] && (
            <span role="status" className={state === 'invalid' || state === 'conflict' ? styles.danger : styles.secondary}>
              {status[state]}
            </span>
          )}
          {actions}
        </div>
      </div>
      <div className={styles.details}>
        <Descriptions
          column={{ xs: 1, sm: 2, lg: 4 }}
          items={[
            { key: 'when', label: t('appointments.time'), children: `${formatDayTime(a.starts_at)} · ${t('appointments.minutes', { count: a.duration_minutes })}` },
            { key: 'doctor', label: t('appointments.doctor'), children: a.doctor_name },
            { key: 'type', label: t('appointments.type'), children: t(appointmentTypeLabel[a.type]) },
            { key: 'reason', label: t('appointments.reason'), children: a.reason || '—' },
          ]}
        />
      </div>
    </Card>
  )
}
