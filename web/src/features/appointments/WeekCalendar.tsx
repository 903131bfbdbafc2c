import { Empty, Typography } from 'antd'
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { fullName } from '../../lib/patient'
import { chartOf, type Appointment } from './api/types'
import styles from './appointments.module.css'

const SLOT_COLORS: Record<string, string> = {
  booked: '#1677ff',
  arrived: '#d48806',
  'in-progress': '#722ed1',
  completed: '#389e0d',
  cancelled: '#8c8c8c',
  'no-show': '#cf1322',
}

/** A doctor's week: one column per day (stacked on a phone), appointments by time. */
export function WeekCalendar({ start, appointments, onPickDay }: { start: string; appointments: Appointment[]; onPickDay: (day: string) => void }) {
  const { t } = useTranslation()
  const days = Array.from({ length: 7 }, (_, i) => dayjs(start).add(i, 'day'))
  const today = dayjs().format('YYYY-MM-DD')
  return (
    <div className={styles.week}>
      {days.map((d) => {
        const key = d.format('YYYY-MM-DD')
        const list = appointments.filter((a) => a.day === key)
        return (
          <section key={key} className={`${styles.day} ${key === today ? styles.today : ''}`} aria-label={d.format('dddd YYYY-MM-DD')}>
            <button type="button" className={styles.dayHead} onClick={() => onPickDay(key)} title={t('appointments.openQueue')}>
              {d.format('dd')} {d.format('DD.MM')}
              {list.length > 0 && <Typography.Text type="secondary"> · {list.length}</Typography.Text>}
            </button>
            {list.length === 0 ? (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('appointments.dayFree')} style={{ margin: '8px 0' }} />
            ) : (
              <ul className={styles.slots}>
                {list.map((a) => (
                  <li
                    key={a.id}
                    className={`${styles.slot} ${a.status === 'cancelled' || a.status === 'no-show' ? styles.cancelled : ''}`}
                    style={{ ['--slot-color' as string]: SLOT_COLORS[a.status] }}
                    title={`${dayjs(a.starts_at).format('HH:mm')} ${fullName(a.patient)} — ${t(`appointments.status.${a.status}`)}`}
                  >
                    <strong>{dayjs(a.starts_at).format('HH:mm')}</strong> <Link to={chartOf(a)}>{fullName(a.patient)}</Link>
                  </li>
                ))}
              </ul>
            )}
          </section>
        )
      })}
    </div>
  )
}
