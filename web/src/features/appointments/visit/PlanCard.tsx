import { Alert, Card, DatePicker, Form, Input } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useTranslation } from 'react-i18next'
import { dateFormat, formatDayTime } from '../../../lib/time'
import type { Visit } from '../api/types'
import { appointmentStatusLabel } from '../../../lib/labels'

// The follow-up date is kept as YYYY-MM-DD; the picker works on dayjs values.
const dateItem = { getValueProps: (v: string) => ({ value: v ? dayjs(v) : null }), normalize: (d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : '') }

/** The plan, and the follow-up date that books a follow-up (after the visit's day). Inside the visit's form. */
export function PlanCard({ disabled, day, followUp }: { disabled: boolean; day: string; followUp: Visit['follow_up'] }) {
  const { t } = useTranslation()
  return (
    <Card title={t('visit.sections.plan')}>
      <Form.Item name="plan" label={t('visit.fields.plan')}>
        <Input.TextArea autoSize={{ minRows: 2, maxRows: 10 }} maxLength={4000} disabled={disabled} />
      </Form.Item>
      <Form.Item name="follow_up_date" label={t('visit.fields.follow_up_date')} extra={t('visit.followUpHelp')} {...dateItem}>
        <DatePicker format={dateFormat()} disabled={disabled} disabledDate={(d) => !d.isAfter(dayjs(day), 'day')} />
      </Form.Item>
      {followUp && (
        <Alert type="success" showIcon title={t('visit.followUpBooked', { time: formatDayTime(followUp.starts_at), status: t(appointmentStatusLabel[followUp.status]) })} />
      )}
    </Card>
  )
}
