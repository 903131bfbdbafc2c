import { BookOutlined, PlusOutlined } from '@ant-design/icons'
import { App, Button, Card, Drawer, Empty, Flex, Grid, Segmented, Typography } from 'antd'
import dayjs from 'dayjs'
import { lazy, Suspense, useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router'
import { useCan } from '../../lib/auth/can'
import { fullName } from '../../lib/patient'
import { Slot } from '../../lib/slots'
import { useViewActive } from '../../lib/viewSubject'
import { useBillTags } from './api/billTags'
import { useChangeStatus, type StatusAction } from './api/changeStatus'
import { useAppointments } from './api/listAppointments'
import { useDoctors } from './api/listDoctors'
import { useReorderQueue } from './api/reorderQueue'
import { STATUSES, type Appointment } from './api/types'
import { BillTag } from './queue/BillTag'
import { CancelModal } from './queue/CancelModal'
import { DATE, weekStart } from './queue/dates'
import { Filters } from './queue/Filters'
import { QueueNumber } from './queue/QueueNumber'
import { QueueCards, QueueTable } from './queue/QueueTable'
import { RequestedBookings } from './queue/RequestedBookings'
import { RowActions } from './queue/RowActions'
import { useOpenedOnce } from '../../lib/openedOnce'

// What the day's queue shows only on demand loads when it is asked for: the booking form, the
// week's calendar, the diagnosis codes' drawer (its import, upload and list).
const BookingModal = lazy(() => import('./BookingModal').then((m) => ({ default: m.BookingModal })))
const CodesDrawer = lazy(() => import('./CodesDrawer').then((m) => ({ default: m.CodesDrawer })))
const WeekCalendar = lazy(() => import('./WeekCalendar').then((m) => ({ default: m.WeekCalendar })))

/** /appointments/appointments: the day's queue per doctor, or a doctor's week. */
export default function AppointmentsPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const navigate = useNavigate()
  const canManage = useCan('manage appointment')
  const canCatalogue = useCan('manage catalogue')
  // Bills: those who charge, take payments or read the financial reports.
  const seeBills = [useCan('record charges'), useCan('record payment'), useCan('view financial reports')].some(Boolean)
  const screens = Grid.useBreakpoint()
  const [params, setParams] = useSearchParams()
  const view = params.get('view') === 'week' ? 'week' : 'queue'
  const date = dayjs(params.get('date') ?? '', DATE, true).isValid() ? params.get('date')! : dayjs().format(DATE)
  const doctors = useDoctors()
  const doctorParam = Number(params.get('doctor')) || undefined
  // The week is always one doctor's: the chosen one, else the first.
  const doctorId = view === 'week' ? (doctorParam ?? doctors.data?.[0]?.id) : doctorParam
  const status = STATUSES.includes(params.get('status') as never) ? params.get('status')! : undefined
  const from = weekStart(date)

  const queue = useAppointments({ date, doctor_id: doctorId, status }, view === 'queue')
  const week = useAppointments({ from, to: dayjs(from).add(6, 'day').format(DATE), doctor_id: doctorId }, view === 'week' && Boolean(doctorId))
  const changeStatus = useChangeStatus()
  const reorder = useReorderQueue()
  // ?book=PATIENT opens the booking form for that patient (the chart's "Book appointment").
  const bookFor = Number(params.get('book')) || undefined
  const [booking, setBooking] = useState<{ appointment?: Appointment } | null>(bookFor && canManage ? {} : null)
  const [cancelling, setCancelling] = useState<Appointment | null>(null)
  const [codesOpen, setCodesOpen] = useState(false)
  const codesOpened = useOpenedOnce(codesOpen)
  const [billFor, setBillFor] = useState<Appointment | null>(null)
  // The page stays alive behind others (a print opened from the bill): its drawer shows only with it.
  const here = useViewActive()

  const update = useCallback(
    (next: Record<string, string | number | undefined>) =>
      setParams(
        (prev) => {
          const p = new URLSearchParams(prev)
          for (const [k, v] of Object.entries(next)) {
            if (v === undefined || v === '') p.delete(k)
            else p.set(k, String(v))
          }
          return p
        },
        { replace: true },
      ),
    [setParams],
  )

  const act = (a: Appointment, action: StatusAction, reason?: string) =>
    changeStatus.mutateAsync({ a, action, reason }).then(() => {
      void message.success(t(`appointments.done.${action}`))
      if (action === 'start') navigate(`/appointments/form/${a.id}`)
    })

  const rows = queue.data?.data ?? []
  const tags = useBillTags(
    rows.slice(0, 500).map((a) => a.id),
    seeBills && view === 'queue',
  )
  // Reordering needs the whole queue of one doctor.
  const canReorder = canManage && Boolean(doctorId) && !status
  const move = (index: number, delta: number) => {
    const ids = rows.map((a) => a.id)
    const [id] = ids.splice(index, 1)
    ids.splice(index + delta, 0, id)
    reorder.mutate({ date, doctor_id: doctorId!, ids }, { onSuccess: () => void message.success(t('appointments.reordered')) })
  }
  const list = {
    rows,
    loading: queue.isFetching && !queue.data,
    showDoctor: !doctorId,
    number: (a: Appointment, i: number) => <QueueNumber n={a.queue_number} index={i} last={i === rows.length - 1} move={canReorder ? move : undefined} busy={reorder.isPending} />,
    actions: (a: Appointment) => (
      <RowActions a={a} onAct={(x, action) => void act(x, action)} onEdit={(x) => setBooking({ appointment: x })} onCancel={setCancelling} onBill={seeBills ? setBillFor : undefined} />
    ),
    bill: (a: Appointment) => <BillTag tag={tags.data?.get(a.id)} />,
  }

  return (
    <Card>
      <Flex wrap gap={12} justify="space-between" align="center" style={{ marginBottom: 16 }}>
        <Typography.Title level={2} className="page-title" style={{ margin: 0 }}>
          {t('appointments.title')}
        </Typography.Title>
        <Flex wrap gap={8}>
          <Segmented
            value={view}
            onChange={(v) => update({ view: v === 'week' ? 'week' : undefined })}
            options={[
              { value: 'queue', label: t('appointments.viewQueue') },
              { value: 'week', label: t('appointments.viewWeek') },
            ]}
          />
          {canCatalogue && (
            <Button icon={<BookOutlined aria-hidden />} onClick={() => setCodesOpen(true)}>
              {t('codes.title')}
            </Button>
          )}
          {canManage && (
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => setBooking({})}>
              {t('appointments.book')}
            </Button>
          )}
        </Flex>
      </Flex>
      <Filters view={view} date={date} doctorId={doctorId} status={status} doctors={doctors.data ?? []} update={update} />
      {view === 'queue' && <RequestedBookings date={date} doctorId={doctorId} />}
      {view === 'queue' ? (
        // A phone gets the queue as cards: every action within reach, nothing scrolled sideways.
        screens.md ? <QueueTable {...list} reorderable={canReorder} /> : <QueueCards {...list} />
      ) : doctorId ? (
        <Suspense>
          <WeekCalendar start={from} appointments={week.data?.data ?? []} onPickDay={(d) => update({ view: undefined, date: d })} />
        </Suspense>
      ) : (
        <Empty description={t('appointments.noDoctors')} />
      )}
      {booking && (
        <Suspense>
          <BookingModal
            open
            onClose={() => {
              setBooking(null)
              if (bookFor) update({ book: undefined })
            }}
            appointment={booking.appointment}
            patientId={booking.appointment ? undefined : bookFor}
            date={date}
            doctorId={doctorId}
          />
        </Suspense>
      )}
      <CancelModal appointment={cancelling} busy={changeStatus.isPending} onClose={() => setCancelling(null)} onCancel={(a, reason) => void act(a, 'cancel', reason).then(() => setCancelling(null))} />
      {canCatalogue && codesOpened && (
        <Suspense>
          <CodesDrawer open={codesOpen} onClose={() => setCodesOpen(false)} />
        </Suspense>
      )}
      <Drawer open={!!billFor && here} onClose={() => setBillFor(null)} size={screens.md ? 'large' : '100%'} destroyOnHidden title={billFor && t('bill.of', { name: fullName(billFor.patient) })}>
        {billFor && <Slot name="visitBill" appointmentId={billFor.id} closed={billFor.status === 'cancelled' || billFor.status === 'no-show'} />}
      </Drawer>
    </Card>
  )
}
