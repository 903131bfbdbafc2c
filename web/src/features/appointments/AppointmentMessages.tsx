// What the patient was sent about an appointment, and what became of each message (the booking form shows it).
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { messageChannelLabel, messageStatusColor, messageStatusLabel, messageTopicLabel } from '../../lib/patientMessages'
import { Tag } from '../../light/Tag'
import { useAppointmentMessages } from './api/listAppointmentMessages'
import styles from './queue/queue.module.css'

export function AppointmentMessages({ id }: { id: number }) {
  const { t } = useTranslation()
  const { data } = useAppointmentMessages(id)
  if (!data) return null
  return (
    <section aria-label={t('patientMessages.ofAppointment')} className={styles.messages}>
      <strong>{t('patientMessages.ofAppointment')}</strong>
      {data.length === 0 ? (
        <p className={`${styles.secondary} ${styles.noMessages}`}>{t('patientMessages.none')}</p>
      ) : (
        <ul className={styles.messageList}>
          {data.map((m) => (
            <li key={m.id} className={styles.message}>
              <span>{t(messageTopicLabel[m.topic])}</span>
              <span className={styles.secondary}>
                {t(messageChannelLabel[m.channel])}
                {m.to && ` · ${m.to}`}
              </span>
              <Tag color={messageStatusColor[m.status]}>{t(messageStatusLabel[m.status])}</Tag>
              <span className={styles.secondary}>{m.status === 'sent' && m.sent_at ? dayjs(m.sent_at).format('DD.MM HH:mm') : m.status === 'pending' ? dayjs(m.due_at).format('DD.MM HH:mm') : m.last_error}</span>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
