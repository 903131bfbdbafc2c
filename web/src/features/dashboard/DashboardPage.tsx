// The landing page: the clinic at a glance, each figure for those who may see it, live — the
// welcome with the day and the user's roles, the figures (each a card that opens the list it
// counts; the results feature adds its own through a slot), the charts (Charts.tsx) and the
// month's calendar. On the light components (src/light; issue 58): no Ant Design on this screen.
import { useQuery } from '@tanstack/react-query'
import dayjs from 'dayjs'
import { useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { FigureCard, FigureNote } from '../../components/FigureCard'
import { useCan } from '../../lib/auth/can'
import { meQuery } from '../../lib/auth/me'
import { appointmentStatusColor, appointmentStatusLabel } from '../../lib/labels'
import { formatMoney } from '../../lib/money'
import { useOrdersToCharge } from '../../lib/ordersToCharge'
import { Slot } from '../../lib/slots'
import { Calendar } from '../../light/Calendar'
import { Card } from '../../light/Card'
import { Skeleton } from '../../light/Skeleton'
import { Tag } from '../../light/Tag'
import { useAppointmentFigures } from './api/getAppointmentFigures'
import { useCollectedToday } from './api/getCollectedToday'
import { useDiagnosisFigures } from './api/getDiagnosisFigures'
import { usePatientFigures } from './api/getPatientFigures'
import { STATUSES, total, type AppointmentFigures, type PatientFigures } from './api/types'
import { AgesChart, AppointmentsChart, DiagnosesChart, RegistrationsChart } from './Charts'
import styles from './DashboardPage.module.css'

export default function DashboardPage() {
  const { t, i18n } = useTranslation()
  const { data: me } = useQuery(meQuery)
  const [now] = useState(() => new Date())
  const today = new Intl.DateTimeFormat(i18n.language, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(now)
  const seeAppointments = useCan('view appointment')
  const seePatients = useCan('view patient')
  const seeDiagnoses = useCan('write diagnosis')
  const appointments = useAppointmentFigures(seeAppointments)
  const patients = usePatientFigures(seePatients)
  const diagnoses = useDiagnosisFigures(seeDiagnoses)
  const seeMoney = useCan('view financial reports')
  const collected = useCollectedToday(seeMoney)
  // The desk's list of the day's lab orders to charge (or to refund), as a count that opens it.
  const takesPayments = useCan('record payment')
  const seeOrders = takesPayments || seeMoney
  const orders = useOrdersToCharge(dayjs().format('YYYY-MM-DD'), seeOrders)

  return (
    <div className={styles.page}>
      <div>
        <h2 className={`page-title ${styles.title}`}>{t('home.welcome', { name: me?.name ?? '' })}</h2>
        <div className={styles.subtitle}>
          <span>{today}</span>
          <span>·</span>
          <span>{t('home.roles')}</span>
          {me?.roles.map((role) => (
            <Tag key={role} color="blue">
              {t(`roles.${role}`, { defaultValue: role })}
            </Tag>
          ))}
        </div>
      </div>
      <div className={styles.figures}>
        {seeAppointments && <AppointmentCards figures={appointments.data} myId={me?.id} doctor={!!me?.roles.includes('doctor')} />}
        {seePatients && <PatientCards figures={patients.data} />}
        <Slot name="dashboardResults" />
        {seeMoney && (
          <FigureCard
            title={t('home.collectedToday')}
            value={collected.data && formatMoney(collected.data.collected, collected.data.currency, collected.data.minor_units, i18n.language)}
            to="/fees/reports"
            testId="figure-collected"
            extra={collected.data && <FigureNote>{t('home.paymentsToday', { count: collected.data.payments })}</FigureNote>}
          />
        )}
        {seeOrders && (
          <FigureCard
            title={t('home.ordersToCharge')}
            value={orders.data?.data.length}
            to="/fees/orders-to-charge"
            testId="figure-orders-to-charge"
            extra={orders.data && <FigureNote>{t('home.ordersToChargeHint')}</FigureNote>}
          />
        )}
      </div>
      <div className={styles.panels}>
        {seeAppointments && <ChartCard title={t('home.appointmentsChart')}>{appointments.data && <AppointmentsChart figures={appointments.data} />}</ChartCard>}
        {seePatients && <ChartCard title={t('home.patientsChart')}>{patients.data && <RegistrationsChart figures={patients.data} />}</ChartCard>}
        {seeDiagnoses && <ChartCard title={t('home.diagnosesChart')}>{diagnoses.data && <DiagnosesChart figures={diagnoses.data} />}</ChartCard>}
        {seePatients && <ChartCard title={t('home.agesChart')}>{patients.data && <AgesChart figures={patients.data} />}</ChartCard>}
        <Card level={3} title={t('home.calendar')}>
          <Calendar prevLabel={t('home.prevMonth')} nextLabel={t('home.nextMonth')} />
        </Card>
      </div>
    </div>
  )
}

/** A chart's card, with a placeholder of a chart's height until its figures arrive. */
function ChartCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card level={3} title={title}>
      {children || <Skeleton block={300} />}
    </Card>
  )
}

function AppointmentCards({ figures, myId, doctor }: { figures?: AppointmentFigures; myId?: number; doctor: boolean }) {
  const { t } = useTranslation()
  const queue = `/appointments/appointments?date=${figures?.today.day ?? ''}`
  const byStatus = figures && (
    <div className={styles.statuses}>
      {STATUSES.filter((s) => figures.today.by_status[s] > 0).map((s) => (
        <Tag key={s} color={appointmentStatusColor[s]}>
          {t(appointmentStatusLabel[s])} {figures.today.by_status[s]}
        </Tag>
      ))}
    </div>
  )
  return (
    <>
      <FigureCard title={t('home.appointmentsToday')} value={figures && total(figures.today)} to={queue} testId="figure-today" extra={byStatus} />
      <FigureCard title={t('home.waitingNow')} value={figures?.waiting} to={`${queue}&status=arrived`} testId="figure-waiting" />
      {/* A doctor's own queue (the server counts it for doctors): its card waits in place for the figures. */}
      {(figures ? figures.mine : doctor) && (
        <FigureCard title={t('home.myQueue')} value={figures?.mine && total(figures.mine)} to={`${queue}&doctor=${myId}`} testId="figure-mine" />
      )}
    </>
  )
}

function PatientCards({ figures }: { figures?: PatientFigures }) {
  const { t } = useTranslation()
  return (
    <>
      <FigureCard title={t('home.patientsTotal')} value={figures?.total} to="/masterfile/patients" testId="figure-patients" />
      <FigureCard title={t('home.registeredThisMonth')} value={figures?.this_month} to="/masterfile/patients" testId="figure-registered" />
    </>
  )
}
