import { LeftOutlined, RightOutlined } from '@ant-design/icons'
import { Button, Flex, Select, Space } from 'antd'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { formatDay } from '../../../lib/time'
import { STATUSES, type Doctor } from '../api/types'
import { DATE, weekStart } from './dates'
import { appointmentStatusLabel } from '../../../lib/labels'
import { DateInput } from '../../../components/DateInput'

interface Props {
  view: 'queue' | 'week'
  date: string
  doctorId?: number
  status?: string
  doctors: Doctor[]
  /** Changes the address bar's parameters (undefined removes one). */
  update: (next: Record<string, string | number | undefined>) => void
}

/** The queue's and the week's filters: day (or week) with its arrows and Today, doctor, status. */
export function Filters({ view, date, doctorId, status, doctors, update }: Props) {
  const { t } = useTranslation()
  const step = view === 'week' ? 7 : 1
  const shift = (days: number) => update({ date: dayjs(date).add(days, 'day').format(DATE) })
  return (
    <Flex wrap gap={8} align="center" style={{ marginBottom: 16 }}>
      <Space.Compact>
        <Button icon={<LeftOutlined aria-hidden />} onClick={() => shift(-step)} aria-label={view === 'week' ? t('appointments.prevWeek') : t('appointments.prevDay')} />
        <DateInput
          value={dayjs(date)}
          allowClear={false}
          onChange={(d) => d && update({ date: d.format(DATE) })}
          aria-label={t('appointments.date')}
          picker={view === 'week' ? 'week' : 'date'}
          // The week as its Monday–Sunday dates, not a week number.
          format={view === 'week' ? (d) => `${formatDay(weekStart(d.format(DATE)))} – ${formatDay(dayjs(weekStart(d.format(DATE))).add(6, 'day').toDate())}` : undefined}
          style={view === 'week' ? { width: 190 } : undefined}
        />
        <Button icon={<RightOutlined aria-hidden />} onClick={() => shift(step)} aria-label={view === 'week' ? t('appointments.nextWeek') : t('appointments.nextDay')} />
      </Space.Compact>
      <Button onClick={() => update({ date: undefined })}>{t('appointments.today')}</Button>
      <Select
        style={{ minWidth: 200 }}
        value={doctorId ?? 0}
        aria-label={t('appointments.doctor')}
        onChange={(v) => update({ doctor: v || undefined })}
        options={[...(view === 'queue' ? [{ value: 0, label: t('appointments.allDoctors') }] : []), ...doctors.map((d) => ({ value: d.id, label: d.name }))]}
      />
      {view === 'queue' && (
        <Select
          style={{ minWidth: 160 }}
          value={status ?? ''}
          aria-label={t('appointments.statusLabel')}
          onChange={(v) => update({ status: v || undefined })}
          options={[{ value: '', label: t('appointments.allStatuses') }, ...STATUSES.map((s) => ({ value: s, label: t(appointmentStatusLabel[s]) }))]}
        />
      )}
    </Flex>
  )
}
