import { Alert, Card, Form } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import { formatDayTime } from '../../../lib/time'
import type { Visit } from '../api/types'
import { appointmentStatusLabel } from '../../../lib/labels'
import { SnippetTextArea } from '../../../components/snippets/SnippetTextArea'
import type { TextAids } from './textAids'
import { DateInput } from '../../../components/DateInput'

// The follow-up date is kept as YYYY-MM-DD; the picker works on dayjs values.
const dateItem = { getValueProps: (v: string) => ({ value: v ? dayjs(v) : null }), normalize: (d: Dayjs | null) => (d ? d.format('YYYY-MM-DD') : '') }

/** The plan, and the follow-up date that books a follow-up (after the visit's day). Inside the visit's form. */
export const PlanCard = memo(function PlanCard({ disabled, day, followUp, aids }: { disabled: boolean; day: string; followUp: Visit['follow_up']; aids: TextAids }) {
  const { t } = useTranslation()
  return (
    <Card title={t('visit.sections.plan')} id="visit-plan" tabIndex={-1}>
      <Form.Item name="plan" label={t('visit.fields.plan')} extra={aids.copied('plan')}>
        <SnippetTextArea section="plan" snippets={aids.snippets} values={aids.values} maxLength={4000} disabled={disabled} />
      </Form.Item>
      <Form.Item name="follow_up_date" label={t('visit.fields.follow_up_date')} extra={t('visit.followUpHelp')} {...dateItem}>
        <DateInput disabled={disabled} disabledDate={(d) => !d.isAfter(dayjs(day), 'day')} />
      </Form.Item>
      {followUp && (
        <Alert type="success" showIcon title={t('visit.followUpBooked', { time: formatDayTime(followUp.starts_at), status: t(appointmentStatusLabel[followUp.status]) })} />
      )}
    </Card>
  )
})
