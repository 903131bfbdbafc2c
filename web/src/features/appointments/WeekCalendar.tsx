// A doctor's week (the queue screen's Week view): a time grid on a desktop, the days stacked on a phone.
import dayjs from 'dayjs'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { fullName } from '../../lib/patient'
import { formatDay } from '../../lib/time'
import { chartOf, type Appointment } from './api/types'
import styles from './appointments.module.css'
import { appointmentStatusLabel } from '../../lib/labels'
import { EmptyImage } from '../../light/icons'

const SLOT_COLORS: Record<string, string> = {
  booked: '#1677ff',
  arrived: '#d48806',
  'in-progress': '#722ed1',
  completed: '#389e0d',
  cancelled: '#8c8c8c',
  'no-show': '#cf1322',
}

/** One appointment in the week: its time and the patient's whole name (wrapped, never cut). */
function Slot({ a }: { a: Appointment }) {
  const { t } = useTranslation()
  return (
    <li
      className={`${styles.slot} ${a.status === 'cancelled' || a.status === 'no-show' ? styles.cancelled : ''}`}
      style={{ ['--slot-color' as string]: SLOT_COLORS[a.status] }}
      title={`${dayjs(a.starts_at).format('HH:mm')} ${fullName(a.patient)} — ${t(appointmentStatusLabel[a.status])}`}
    >
      <strong>{dayjs(a.starts_at).format('HH:mm')}</strong> <Link to={chartOf(a)}>{fullName(a.patient)}</Link>
    </li>
  )
}

/**
 * A doctor's week. On a desktop, a time grid: the hours down the side, a column per day, each
 * hour's appointments in its cell. On a phone the days stack, appointments by time.
 */
export function WeekCalendar({ start, appointments, onPickDay }: { start: string; appointments: Appointment[]; onPickDay: (day: string) => void }) {
  const { t, i18n } = useTranslation()
  const days = Array.from({ length: 7 }, (_, i) => dayjs(start).add(i, 'day'))
  const today = dayjs().format('YYYY-MM-DD')
  const byDay = (key: string) => appointments.filter((a) => a.day === key)
  const hoursUsed = appointments.map((a) => dayjs(a.starts_at).hour())
  const first = Math.min(8, ...hoursUsed)
  const last = Math.max(17, ...hoursUsed)
  const hours = Array.from({ length: last - first + 1 }, (_, i) => first + i)
  // The day and month in the language's own order and separators (23.11, 23/11, 11/23).
  const dayMonth = (d: dayjs.Dayjs) => new Intl.DateTimeFormat(i18n.language, { day: '2-digit', month: '2-digit' }).format(d.toDate())
  const head = (d: dayjs.Dayjs) => {
    const key = d.format('YYYY-MM-DD')
    const n = byDay(key).length
    return (
      <button type="button" className={styles.dayHead} onClick={() => onPickDay(key)} title={t('appointments.openQueue')}>
        {d.format('dd')} {dayMonth(d)}
        {n > 0 && <span className={styles.count}> · {n}</span>}
      </button>
    )
  }
  return (
    <>
      <table className={styles.timeGrid} aria-label={t('appointments.viewWeek')}>
        <thead>
          <tr>
            <td className={styles.corner} />
            {days.map((d) => (
              <th scope="col" key={d.format('YYYY-MM-DD')} className={d.format('YYYY-MM-DD') === today ? styles.today : undefined} aria-label={`${d.format('dddd')} ${formatDay(d.toDate())}`}>
                {head(d)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {hours.map((h) => (
            <tr key={h}>
              <th scope="row" className={styles.hour}>
                {String(h).padStart(2, '0')}:00
              </th>
              {days.map((d) => {
                const list = byDay(d.format('YYYY-MM-DD')).filter((a) => dayjs(a.starts_at).hour() === h)
                return (
                  <td key={d.format('YYYY-MM-DD')} className={`${styles.cell} ${d.format('YYYY-MM-DD') === today ? styles.todayCell : ''}`}>
                    {list.length > 0 && (
                      <ul className={styles.slots}>
                        {list.map((a) => (
                          <Slot key={a.id} a={a} />
                        ))}
                      </ul>
                    )}
                  </td>
                )
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <div className={styles.week}>
        {days.map((d) => {
          const key = d.format('YYYY-MM-DD')
          const list = byDay(key)
          return (
            <section key={key} className={`${styles.day} ${key === today ? styles.today : ''}`} aria-label={`${d.format('dddd')} ${formatDay(d.toDate())}`}>
              {head(d)}
              {list.length === 0 ? (
                <div className={styles.free}>
                  <EmptyImage />
                  <div>{t('appointments.dayFree')}</div>
                </div>
              ) : (
                <ul className={styles.slots}>
                  {list.map((a) => (
                    <Slot key={a.id} a={a} />
                  ))}
                </ul>
              )}
            </section>
          )
        })}
      </div>
    </>
  )
}
