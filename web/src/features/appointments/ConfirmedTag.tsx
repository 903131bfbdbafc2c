import { CheckCircleOutlined } from '@ant-design/icons'
import { Tag, Tooltip } from 'antd'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import type { Appointment } from './api/types'

/** "Confirmed by the patient" on a queue row, when they confirmed from a message's link. */
export function ConfirmedTag({ appointment }: { appointment: Appointment }) {
  const { t } = useTranslation()
  if (!appointment.confirmed_at || appointment.status !== 'booked') return null
  return (
    <Tooltip title={t('patientMessages.confirmedAt', { time: dayjs(appointment.confirmed_at).format('DD.MM HH:mm') })}>
      <Tag color="green" icon={<CheckCircleOutlined aria-hidden />} style={{ marginInlineEnd: 0 }} data-testid="confirmed-by-patient">
        {t('patientMessages.confirmedByPatient')}
      </Tag>
    </Tooltip>
  )
}
