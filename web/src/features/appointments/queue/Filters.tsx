// The queue's and the week's filters: the day (or week) with its arrows joined to it, Today,
// the doctor and, on the queue, the status; each changes the address bar's parameters.
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { appointmentStatusLabel } from '../../../lib/labels'
import { Button } from '../../../light/Button'
import { DateInput } from '../../../light/DateInput'
import { LeftIcon, RightIcon } from '../../../light/icons'
import { Select } from '../../../light/Input'
import { STATUSES, type Doctor } from '../api/types'
import { DATE } from './dates'
import styles from './queue.module.css'

interface Props {
  view: 'queue' | 'week'
  date: string
  doctorId?: number
  status?: string
  doctors: Doctor[]
  /** Changes the address bar's parameters (undefined removes one). */
  update: (next: Record<string, string | number | undefined>) => void
}

export function Filters({ view, date, doctorId, status, doctors, update }: Props) {
  const { t } = useTranslation()
  const week = view === 'week'
  const shift = (days: number) => update({ date: dayjs(date).add(days, 'day').format(DATE) })
  return (
    <div className={styles.filters}>
      <span className={styles.joined}>
        <Button className={styles.square} icon={<LeftIcon />} onClick={() => shift(week ? -7 : -1)} aria-label={week ? t('appointments.prevWeek') : t('appointments.prevDay')} />
        <DateInput value={date} week={week} onChange={(d) => update({ date: d })} aria-label={week ? t('appointments.week') : t('appointments.date')} />
        <Button className={styles.square} icon={<RightIcon />} onClick={() => shift(week ? 7 : 1)} aria-label={week ? t('appointments.nextWeek') : t('appointments.nextDay')} />
      </span>
      <Button onClick={() => update({ date: undefined })}>{t('appointments.today')}</Button>
      <Select<number>
        className={styles.doctor}
        value={doctorId ?? 0}
        aria-label={t('appointments.doctor')}
        onChange={(v) => update({ doctor: v || undefined })}
        options={[...(week ? [] : [{ value: 0, label: t('appointments.allDoctors') }]), ...doctors.map((d) => ({ value: d.id, label: d.name }))]}
      />
      {!week && (
        <Select<string>
          className={styles.status}
          value={status ?? ''}
          aria-label={t('appointments.statusLabel')}
          onChange={(v) => update({ status: v || undefined })}
          options={[{ value: '', label: t('appointments.allStatuses') }, ...STATUSES.map((s) => ({ value: s, label: t(appointmentStatusLabel[s]) }))]}
        />
      )}
    </div>
  )
}
