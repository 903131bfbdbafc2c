import { Space, Tag, Typography } from 'antd'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { messageChannelLabel, messageStatusColor, messageStatusLabel, messageTopicLabel } from '../../lib/patientMessages'
import { useAppointmentMessages } from './api/listAppointmentMessages'

/** What the patient was sent about an appointment, and what became of each message. */
export function AppointmentMessages({ id }: { id: number }) {
  const { t } = useTranslation()
  const { data } = useAppointmentMessages(id)
  if (!data) return null
  return (
    <section aria-label={t('patientMessages.ofAppointment')} style={{ marginTop: 8 }}>
      <Typography.Text strong>{t('patientMessages.ofAppointment')}</Typography.Text>
      {data.length === 0 ? (
        <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
          {t('patientMessages.none')}
        </Typography.Paragraph>
      ) : (
        <ul style={{ listStyle: 'none', padding: 0, margin: '4px 0 0' }}>
          {data.map((m) => (
            <li key={m.id} style={{ padding: '2px 0' }}>
              <Space size={6} wrap>
                <span>{t(messageTopicLabel[m.topic])}</span>
                <Typography.Text type="secondary">
                  {t(messageChannelLabel[m.channel])}
                  {m.to && ` · ${m.to}`}
                </Typography.Text>
                <Tag color={messageStatusColor[m.status]} style={{ marginInlineEnd: 0 }}>
                  {t(messageStatusLabel[m.status])}
                </Tag>
                <Typography.Text type="secondary">
                  {m.status === 'sent' && m.sent_at ? dayjs(m.sent_at).format('DD.MM HH:mm') : m.status === 'pending' ? dayjs(m.due_at).format('DD.MM HH:mm') : m.last_error}
                </Typography.Text>
              </Space>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
