// The day's queue: a table on a desktop (number, time, patient, doctor when all are shown,
// type, reason, status, actions) and a list of cards on a phone (every action within reach,
// nothing scrolled sideways). The columns are made once per change of what they show, and the
// light table re-renders only the rows whose appointment changed.
import dayjs from 'dayjs'
import { memo, useMemo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { appointmentTypeLabel } from '../../../lib/labels'
import { fullName } from '../../../lib/patient'
import { formatDay } from '../../../lib/time'
import { EmptyImage } from '../../../light/icons'
import { Table, type Column } from '../../../light/Table'
import { Tag } from '../../../light/Tag'
import { chartOf, type Appointment } from '../api/types'
import { ConfirmedTag } from '../ConfirmedTag'
import { StatusTag } from '../StatusTag'
import styles from './queue.module.css'

const isMuted = (a: Appointment) => a.status === 'cancelled' || a.status === 'no-show'
const muted = (a: Appointment) => (isMuted(a) ? 'emr-row-muted' : undefined)

export interface QueueProps {
  rows: Appointment[]
  loading: boolean
  showDoctor: boolean
  /** The row's queue number (with its arrows when the queue may be reordered). */
  number: (a: Appointment) => ReactNode
  actions: (a: Appointment) => ReactNode
  /** The appointment's bill tag, for those who see bills. */
  bill: (a: Appointment) => ReactNode
}

/** The day's queue as a table (desktop), with a line under it: how many, waiting, completed. */
export function QueueTable({ rows, loading, showDoctor, reorderable, number, actions, bill, labelledBy }: QueueProps & { reorderable: boolean; labelledBy?: string }) {
  const { t } = useTranslation()
  const columns = useMemo<Column<Appointment>[]>(
    () => [
      { key: 'number', header: t('appointments.queueNo'), width: reorderable ? 110 : 64, cell: number },
      {
        key: 'time',
        header: t('appointments.time'),
        width: 130,
        cell: (a) => (
          <span className={styles.nowrap}>
            {dayjs(a.starts_at).format('HH:mm')}
            <span className={styles.secondary}> · {t('appointments.minutes', { count: a.duration_minutes })}</span>
          </span>
        ),
      },
      {
        key: 'patient',
        header: t('appointments.patient'),
        cell: (a) => (
          <span className={styles.stack}>
            <Link to={chartOf(a)}>{fullName(a.patient)}</Link>
            <span className={`${styles.secondary} ${styles.small}`}>
              {a.patient.mrn} · {formatDay(a.patient.birth_date)}
            </span>
          </span>
        ),
      },
      ...(showDoctor ? [{ key: 'doctor', header: t('appointments.doctor'), from: 'md' as const, cell: (a: Appointment) => a.doctor_name }] : []),
      { key: 'type', header: t('appointments.type'), width: 120, from: 'lg', cell: (a) => <Tag>{t(appointmentTypeLabel[a.type])}</Tag> },
      {
        key: 'reason',
        header: t('appointments.reason'),
        from: 'lg',
        cell: (a) => (
          <span>
            {a.reason || '—'}
            {a.remarks && <span className={styles.secondary}> · {a.remarks}</span>}
            {a.cancel_reason && <span className={styles.secondary}> · {a.cancel_reason}</span>}
          </span>
        ),
      },
      {
        key: 'status',
        header: t('appointments.statusLabel'),
        width: 130,
        cell: (a) => (
          <span className={styles.stack4}>
            <StatusTag status={a.status} />
            <ConfirmedTag appointment={a} />
            {bill(a)}
          </span>
        ),
      },
      { key: 'actions', header: t('appointments.actionsLabel'), width: 180, cell: actions },
    ],
    [t, reorderable, showDoctor, number, actions, bill],
  )
  return (
    <>
      <Table<Appointment> columns={columns} rows={rows} rowKey={(a) => a.id} rowClass={muted} labelledBy={labelledBy} loading={loading} empty={t('appointments.empty')} wrap />
      {rows.length > 0 && (
        <p className={styles.summary}>
          {t('appointments.summary', { count: rows.length, waiting: rows.filter((a) => a.status === 'arrived').length, done: rows.filter((a) => a.status === 'completed').length })}
        </p>
      )}
    </>
  )
}

/** The day's queue as cards (a phone). */
export function QueueCards({ rows, loading, showDoctor, number, actions, bill }: QueueProps) {
  const { t } = useTranslation()
  if (rows.length === 0)
    return (
      <div className={styles.none} aria-busy={loading || undefined}>
        {loading ? (
          t('app.loading')
        ) : (
          <>
            <EmptyImage />
            <div>{t('appointments.empty')}</div>
          </>
        )}
      </div>
    )
  return (
    <ul className={styles.cards} aria-busy={loading || undefined}>
      {rows.map((a) => (
        <QueueCard key={a.id} a={a} showDoctor={showDoctor} number={number} actions={actions} bill={bill} />
      ))}
    </ul>
  )
}

/** One appointment's card: its number and time, its tags, the patient, its actions. */
const QueueCard = memo(function QueueCard({ a, showDoctor, number, actions, bill }: Omit<QueueProps, 'rows' | 'loading'> & { a: Appointment }) {
  return (
    <li className={[styles.card, isMuted(a) ? styles.muted : ''].join(' ')}>
      <div className={styles.cardTop}>
        <span className={styles.cardTime}>
          {number(a)}
          <strong>{dayjs(a.starts_at).format('HH:mm')}</strong>
        </span>
        <span className={styles.row}>
          {bill(a)}
          <StatusTag status={a.status} />
          <ConfirmedTag appointment={a} />
        </span>
      </div>
      <div className={styles.cardName}>
        <Link to={chartOf(a)}>{fullName(a.patient)}</Link>
        <span className={styles.secondary}>
          {' '}
          · {a.patient.mrn}
          {showDoctor && ` · ${a.doctor_name}`}
          {a.reason && ` · ${a.reason}`}
        </span>
      </div>
      {actions(a)}
    </li>
  )
})
