// "Confirmed by the patient" on a queue row, when they confirmed from a message's link; when,
// in a tooltip on hover (and said as the tag's description).
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { CheckCircleIcon } from '../../light/icons'
import { Tag } from '../../light/Tag'
import { useTooltip } from '../../light/Tooltip'
import type { Appointment } from './api/types'
import styles from './queue/queue.module.css'

export function ConfirmedTag({ appointment }: { appointment: Appointment }) {
  if (!appointment.confirmed_at || appointment.status !== 'booked') return null
  return <Confirmed at={appointment.confirmed_at} />
}

function Confirmed({ at }: { at: string }) {
  const { t } = useTranslation()
  const tip = useTooltip(t('patientMessages.confirmedAt', { time: dayjs(at).format('DD.MM HH:mm') }), { placement: 'bottom-start', named: false })
  return (
    <span className={styles.tipAnchor} {...tip.anchor}>
      <Tag color="green" icon={<CheckCircleIcon />} data-testid="confirmed-by-patient" aria-describedby={tip.describedBy}>
        {t('patientMessages.confirmedByPatient')}
      </Tag>
      {tip.tooltip}
    </span>
  )
}
