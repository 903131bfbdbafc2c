import { Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import type { Status } from './api/types'
import { appointmentStatusLabel } from '../../lib/labels'

export const STATUS_COLORS: Record<Status, string> = {
  booked: 'blue',
  arrived: 'gold',
  'in-progress': 'purple',
  completed: 'green',
  cancelled: 'default',
  'no-show': 'red',
}

/** An appointment's status as a coloured, translated tag. */
export function StatusTag({ status }: { status: Status }) {
  const { t } = useTranslation()
  return (
    <Tag color={STATUS_COLORS[status]} style={{ marginInlineEnd: 0 }}>
      {t(appointmentStatusLabel[status])}
    </Tag>
  )
}
