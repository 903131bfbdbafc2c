// The booking form: books an appointment or edits one, on the light components (src/light;
// issue 58): the queue opens it without loading the component library.
import dayjs from 'dayjs'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PatientSelect } from '../../components/PatientSelect'
import { ApiError } from '../../lib/api'
import { appointmentTypeLabel } from '../../lib/labels'
import { fullName } from '../../lib/patient'
import { Alert } from '../../light/Alert'
import { DateInput } from '../../light/DateInput'
import { Field } from '../../light/Field'
import { useForm } from '../../light/form'
import { FormDialog } from '../../light/FormDialog'
import { Input, Select, TextArea } from '../../light/Input'
import { RadioGroup } from '../../light/RadioGroup'
import { useToast } from '../../light/Toast'
import { AppointmentMessages } from './AppointmentMessages'
import { useAppointments } from './api/listAppointments'
import { useDoctors } from './api/listDoctors'
import { useSaveAppointment } from './api/saveAppointment'
import { DURATIONS, TYPES, type Appointment, type AppointmentInput } from './api/types'
import styles from './booking.module.css'
import { firstFreeSlot, soonestSlot } from './soonestSlot'
import { parseTime, TimeSelect } from './TimeSelect'

const DAY = 'YYYY-MM-DD'
const TIME = 'HH:mm'

interface Values {
  patient_id: number | undefined
  doctor_id: number | undefined
  /** The day, ISO (YYYY-MM-DD). */
  date: string
  /** The time of day, HH:mm, as the library's time picker gave it. */
  time: string
  duration_minutes: number
  type: AppointmentInput['type']
  reason: string
  remarks: string
}

/** The time the form sends: the day and the time in the browser's zone, to the minute. */
export const startsAt = (date: string, time: string) => dayjs(`${date}T${time}`).second(0).millisecond(0).format()

/** Books an appointment, or edits one (its patient stays). */
export function BookingModal({ open, onClose, appointment, patientId, date, doctorId }: {
  open: boolean
  onClose: () => void
  appointment?: Appointment
  /** A patient chosen already (booking from the chart). */
  patientId?: number
  date: string
  doctorId?: number
}) {
  const { t } = useTranslation()
  const toast = useToast()
  const doctors = useDoctors()
  const save = useSaveAppointment()
  const [problem, setProblem] = useState('')
  // A clinic with one doctor books with that doctor: the field starts filled, not empty
  // (clinic-day review, m2), also when the list arrives after the dialog opened.
  const only = doctors.data?.length === 1 ? doctors.data[0].id : undefined
  const required = (v: unknown) => (v == null || v === '' ? t('validation.required') : undefined)
  const form = useForm<Values>(
    appointment
      ? {
          patient_id: appointment.patient_id,
          doctor_id: appointment.doctor_id,
          date: dayjs(appointment.starts_at).format(DAY),
          time: dayjs(appointment.starts_at).format(TIME),
          duration_minutes: appointment.duration_minutes,
          type: appointment.type,
          reason: appointment.reason,
          remarks: appointment.remarks,
        }
      : {
          patient_id: patientId,
          doctor_id: doctorId ?? only,
          date: dayjs(date).isBefore(dayjs(), 'day') ? dayjs().format(DAY) : dayjs(date).format(DAY),
          time: soonestSlot(dayjs()).format(TIME),
          duration_minutes: 15,
          type: 'new',
          reason: '',
          remarks: '',
        },
    { patient_id: required, doctor_id: required, date: required, time: (v) => required(v) ?? (parseTime(v) === v ? undefined : t('appointments.timeFormat')) },
  )
  const v = form.values
  // form.set is made anew at each render: the effects below run on what they watch, not on it.
  const setForm = useRef(form.set)
  setForm.current = form.set
  useEffect(() => {
    if (open && !appointment && only !== undefined && v.doctor_id == null) setForm.current('doctor_id', only)
  }, [open, appointment, only, v.doctor_id])

  // A new booking's time starts at the doctor's first free time of the day from a quarter of an
  // hour from now, not at a time another appointment holds (the clinic manager's run,
  // 2026-11-29); a time the desk has chosen is left alone.
  const timeTouched = useRef(false)
  const queue = useAppointments({ date: v.date || undefined, doctor_id: v.doctor_id, per_page: 200 }, open && !appointment && v.doctor_id != null && Boolean(v.date))
  useEffect(() => {
    if (!open || appointment || !queue.data || !v.date || timeTouched.current) return
    const soonest = soonestSlot(dayjs())
    const from = dayjs(v.date).hour(soonest.hour()).minute(soonest.minute()).second(0).millisecond(0)
    const free = firstFreeSlot(from, v.duration_minutes, queue.data.data).format(TIME)
    if (free !== v.time) setForm.current('time', free)
    // eslint-disable-next-line react-hooks/exhaustive-deps -- proposed as the day, the doctor's queue or the length changes, not as the time does
  }, [open, appointment, queue.data, v.date, v.duration_minutes])

  const submit = () => {
    setProblem('')
    const input = { patient_id: v.patient_id!, doctor_id: v.doctor_id!, starts_at: startsAt(v.date, v.time), duration_minutes: v.duration_minutes, type: v.type, reason: v.reason ?? '', remarks: v.remarks ?? '' }
    save.mutate(
      { id: appointment?.id, version: appointment?.version, input },
      {
        onSuccess: (a) => {
          toast.success(appointment ? t('appointments.saved') : t('appointments.booked', { number: a.queue_number }))
          onClose()
        },
        onError: (e) => {
          if (!(e instanceof ApiError)) return
          if (e.status === 422 && Object.keys(e.fields).length > 0) {
            const map: Record<string, keyof Values> = { starts_at: 'date' }
            const left = form.fail(Object.fromEntries(Object.entries(e.fields).map(([f, errors]) => [map[f] ?? f, errors.join(' ')])))
            // The type's choice has no message of its own under it: its refusal is said above the form.
            if (e.fields.type) left.push(e.fields.type.join(' '))
            if (left.length) setProblem(left.join(' '))
          } else {
            setProblem(e.display || t('errors.generic'))
          }
        },
      },
    )
  }

  if (!open) return null
  const doctorOptions = (doctors.data ?? []).map((d) => ({ value: d.id, label: d.name }))
  return (
    <FormDialog
      title={appointment ? t('appointments.editTitle') : t('appointments.bookTitle')}
      okText={appointment ? t('appointments.save') : t('appointments.book')}
      cancelText={t('appointments.cancelButton')}
      busy={save.isPending}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      // The library's dialog had OK outside its form: Enter in a field never booked unseen.
      enterSubmits={false}
      width={560}
    >
      {problem && (
        <div className={styles.bookingProblem}>
          <Alert type="error" title={problem} role="alert" />
        </div>
      )}
      <Field label={t('appointments.patient')} required error={form.errors.patient_id}>
        {(c) =>
          appointment ? (
            <Input {...c} disabled value={`${appointment.patient.mrn} — ${fullName(appointment.patient)}`} />
          ) : (
            <PatientSelect {...c} value={v.patient_id} onChange={(p) => form.set('patient_id', p)} placeholder={t('appointments.patientSearch')} notFound={t('appointments.patientNone')} />
          )
        }
      </Field>
      <Field label={t('appointments.doctor')} required error={form.errors.doctor_id}>
        {(c) => (
          <Select<number>
            {...c}
            aria-busy={doctors.isLoading || undefined}
            value={v.doctor_id ?? 0}
            // No doctor chosen yet: the field shows empty, as the library's select did.
            options={v.doctor_id == null ? [{ value: 0, label: '', disabled: true }, ...doctorOptions] : doctorOptions}
            onChange={(d) => form.set('doctor_id', d)}
          />
        )}
      </Field>
      <div className={styles.bookingRow}>
        <Field label={t('appointments.date')} required error={form.errors.date} className={styles.bookingDate}>
          {(c) => <DateInput {...c} value={v.date} min={dayjs().format(DAY)} onChange={(d) => form.set('date', d)} />}
        </Field>
        <Field label={t('appointments.time')} required error={form.errors.time} className={styles.bookingTime}>
          {(c) => (
            <TimeSelect
              {...c}
              label={t('appointments.time')}
              value={v.time}
              onChange={(time) => {
                timeTouched.current = true
                form.set('time', time)
              }}
            />
          )}
        </Field>
        <Field label={t('appointments.duration')} error={form.errors.duration_minutes} className={styles.bookingTime}>
          {(c) => (
            <Select<number>
              {...c}
              value={v.duration_minutes}
              // A length booked otherwise (online, 25 minutes) is shown and kept, as the library's select showed it.
              options={(DURATIONS.includes(v.duration_minutes) ? DURATIONS : [...DURATIONS, v.duration_minutes].sort((a, b) => a - b)).map((m) => ({ value: m, label: t('appointments.minutes', { count: m }) }))}
              onChange={(m) => form.set('duration_minutes', m)}
            />
          )}
        </Field>
      </div>
      <RadioGroup legend={t('appointments.type')} look="button" value={v.type} options={TYPES.map((x) => ({ value: x, label: t(appointmentTypeLabel[x]) }))} onChange={(x) => form.set('type', x)} />
      <Field label={t('appointments.reason')} error={form.errors.reason}>
        {(c) => <Input {...c} maxLength={500} value={v.reason} onChange={(e) => form.set('reason', e.target.value)} />}
      </Field>
      <Field label={t('appointments.remarks')} error={form.errors.remarks}>
        {(c) => <TextArea {...c} rows={2} maxLength={1000} value={v.remarks} onChange={(e) => form.set('remarks', e.target.value)} />}
      </Field>
      {appointment && <AppointmentMessages id={appointment.id} />}
    </FormDialog>
  )
}
