// An appointment's status as a coloured, translated tag (the queue, the visit's header).
import { useTranslation } from 'react-i18next'
import { appointmentStatusColor, appointmentStatusLabel } from '../../lib/labels'
import { Tag } from '../../light/Tag'
import type { Status } from './api/types'

export function StatusTag({ status }: { status: Status }) {
  const { t } = useTranslation()
  return <Tag color={appointmentStatusColor[status]}>{t(appointmentStatusLabel[status])}</Tag>
}
