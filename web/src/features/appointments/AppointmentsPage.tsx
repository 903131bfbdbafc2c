// /appointments/appointments: the day's queue per doctor, or a doctor's week, on the light
// components (src/light; issue 58), and so are the booking form, the diagnosis codes' drawer
// and the bill (another feature's part) it opens: the queue never loads Ant Design.
import dayjs from 'dayjs'
import { lazy, Suspense, useCallback, useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useSearchParams } from 'react-router'
import { useCan } from '../../lib/auth/can'
import { PHONE, useMediaQuery } from '../../lib/media'
import { useOpenedOnce } from '../../lib/openedOnce'
import { fullName } from '../../lib/patient'
import { Slot } from '../../lib/slots'
import { useViewActive } from '../../lib/viewSubject'
import { Button } from '../../light/Button'
import { Card } from '../../light/Card'
import { Drawer } from '../../light/Drawer'
import { BookIcon, EmptyImage, PlusIcon } from '../../light/icons'
import { Segmented } from '../../light/Segmented'
import { useToast } from '../../light/Toast'
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
import styles from './queue/queue.module.css'

// What the day's queue shows only on demand loads when it is asked for: the booking form, the
// week's calendar, the diagnosis codes' drawer (its import, upload and list).
const BookingModal = lazy(() => import('./BookingModal').then((m) => ({ default: m.BookingModal })))
const CodesDrawer = lazy(() => import('./CodesDrawer').then((m) => ({ default: m.CodesDrawer })))
const WeekCalendar = lazy(() => import('./WeekCalendar').then((m) => ({ default: m.WeekCalendar })))

export default function AppointmentsPage() {
  const { t } = useTranslation()
  const toast = useToast()
  const headingId = useId()
  const navigate = useNavigate()
  const canManage = useCan('manage appointment')
  const canCatalogue = useCan('manage catalogue')
  // Bills: those who charge, take payments or read the financial reports.
  const seeBills = [useCan('record charges'), useCan('record payment'), useCan('view financial reports')].some(Boolean)
  const phone = useMediaQuery(PHONE)
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

  const changeStatusAsync = changeStatus.mutateAsync
  const act = useCallback(
    (a: Appointment, action: StatusAction, reason?: string) =>
      changeStatusAsync({ a, action, reason }).then(() => {
        toast.success(t(`appointments.done.${action}`))
        if (action === 'start') navigate(`/appointments/form/${a.id}`)
      }),
    [changeStatusAsync, toast, t, navigate],
  )

  const rows = useMemo(() => queue.data?.data ?? [], [queue.data])
  const tags = useBillTags(
    rows.slice(0, 500).map((a) => a.id),
    seeBills && view === 'queue',
  )
  // Reordering needs the whole queue of one doctor.
  const canReorder = canManage && Boolean(doctorId) && !status
  // Each row's place in the queue, for its arrows.
  const places = useMemo(() => new Map(rows.map((a, i) => [a.id, i])), [rows])
  const reorderMutate = reorder.mutate
  const move = useCallback(
    (index: number, delta: number) => {
      const ids = rows.map((a) => a.id)
      const [id] = ids.splice(index, 1)
      ids.splice(index + delta, 0, id!)
      reorderMutate({ date, doctor_id: doctorId!, ids }, { onSuccess: () => toast.success(t('appointments.reordered')) })
    },
    [rows, reorderMutate, date, doctorId, toast, t],
  )
  // The rows' parts, made anew only when what they show changes (the table's rows are memoised on them).
  const number = useCallback(
    (a: Appointment) => {
      const i = places.get(a.id) ?? 0
      return <QueueNumber n={a.queue_number} index={i} last={i === rows.length - 1} move={canReorder ? move : undefined} busy={reorder.isPending} />
    },
    [places, rows.length, canReorder, move, reorder.isPending],
  )
  const actions = useCallback(
    (a: Appointment) => <RowActions a={a} onAct={(x, action) => void act(x, action)} onEdit={(x) => setBooking({ appointment: x })} onCancel={setCancelling} onBill={seeBills ? setBillFor : undefined} />,
    [act, seeBills],
  )
  const bill = useCallback((a: Appointment) => <BillTag tag={tags.data?.get(a.id)} />, [tags.data])
  const list = { rows, loading: queue.isFetching && !queue.data, showDoctor: !doctorId, number, actions, bill }

  return (
    <Card
      title={t('appointments.title')}
      titleId={headingId}
      extra={
        <>
          <Segmented
            label={t('appointments.title')}
            value={view}
            onChange={(v) => update({ view: v === 'week' ? 'week' : undefined })}
            options={[
              { value: 'queue', label: t('appointments.viewQueue') },
              { value: 'week', label: t('appointments.viewWeek') },
            ]}
          />
          {canCatalogue && (
            <Button icon={<BookIcon />} onClick={() => setCodesOpen(true)}>
              {t('codes.title')}
            </Button>
          )}
          {canManage && (
            <Button variant="primary" icon={<PlusIcon />} onClick={() => setBooking({})} data-testid="book">
              {t('appointments.book')}
            </Button>
          )}
        </>
      }
    >
      <Filters view={view} date={date} doctorId={doctorId} status={status} doctors={doctors.data ?? []} update={update} />
      {view === 'queue' && <RequestedBookings date={date} doctorId={doctorId} />}
      {view === 'queue' ? (
        // A phone gets the queue as cards: every action within reach, nothing scrolled sideways.
        phone ? <QueueCards {...list} /> : <QueueTable {...list} reorderable={canReorder} labelledBy={headingId} />
      ) : doctorId ? (
        <Suspense>
          <WeekCalendar start={from} appointments={week.data?.data ?? []} onPickDay={(d) => update({ view: undefined, date: d })} />
        </Suspense>
      ) : (
        <div className={styles.none}>
          <EmptyImage />
          <div>{t('appointments.noDoctors')}</div>
        </div>
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
      <Drawer open={!!billFor && here} onClose={() => setBillFor(null)} width={phone ? '100%' : 736} closeLabel={t('app.icons.close')} title={billFor ? t('bill.of', { name: fullName(billFor.patient) }) : ''}>
        {billFor && (
          <Slot name="visitBill" appointmentId={billFor.id} closed={billFor.status === 'cancelled' || billFor.status === 'no-show'} />
        )}
      </Drawer>
    </Card>
  )
}
