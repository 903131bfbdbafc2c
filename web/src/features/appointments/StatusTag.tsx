import { Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import type { Status } from './api/types'
import { appointmentStatusColor, appointmentStatusLabel } from '../../lib/labels'

/** An appointment's status as a coloured, translated tag. */
export function StatusTag({ status }: { status: Status }) {
  const { t } = useTranslation()
  return (
    <Tag color={appointmentStatusColor[status]} style={{ marginInlineEnd: 0 }}>
      {t(appointmentStatusLabel[status])}
    </Tag>
  )
}
