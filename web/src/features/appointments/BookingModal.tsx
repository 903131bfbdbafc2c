import { Alert, App, Form, Input, Modal, Radio, Select, TimePicker } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PatientSelect } from '../../components/PatientSelect'
import { ApiError } from '../../lib/api'
import { fullName } from '../../lib/patient'
import { useDoctors } from './api/listDoctors'
import { useSaveAppointment } from './api/saveAppointment'
import { DURATIONS, TYPES, type Appointment, type AppointmentInput } from './api/types'
import { firstFreeSlot, soonestSlot } from './soonestSlot'
import { useAppointments } from './api/listAppointments'
import { focusFirstField } from '../../components/focusFirstField'
import { appointmentTypeLabel } from '../../lib/labels'
import { DateInput } from '../../components/DateInput'
import { AppointmentMessages } from './AppointmentMessages'

interface Values {
  patient_id: number
  doctor_id: number
  date: Dayjs
  time: Dayjs
  duration_minutes: number
  type: AppointmentInput['type']
  reason: string
  remarks: string
}

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
  const { message } = App.useApp()
  const [form] = Form.useForm<Values>()
  const doctors = useDoctors()
  const save = useSaveAppointment()
  const [problem, setProblem] = useState('')
  // A clinic with one doctor books with that doctor: the field starts filled, not empty
  // (clinic-day review, m2), also when the list arrives after the dialog opened.
  const only = doctors.data?.length === 1 ? doctors.data[0].id : undefined
  useEffect(() => {
    if (open && !appointment && only !== undefined && form.getFieldValue('doctor_id') == null) form.setFieldValue('doctor_id', only)
  }, [open, appointment, only, form])

  // A new booking's time starts at the doctor's first free time of the day from a quarter of an
  // hour from now, not at a time another appointment holds (the clinic manager's run,
  // 2026-11-29); a time the desk has chosen is left alone.
  const doctorId_ = Form.useWatch('doctor_id', form) as number | undefined
  const day = Form.useWatch('date', form) as Dayjs | undefined
  const minutes = (Form.useWatch('duration_minutes', form) as number | undefined) ?? 15
  const dayText = day?.format('YYYY-MM-DD')
  const queue = useAppointments({ date: dayText, doctor_id: doctorId_, per_page: 200 }, open && !appointment && doctorId_ != null && dayText != null)
  useEffect(() => {
    if (!open || appointment || !queue.data || !day || form.isFieldTouched('time')) return
    const soonest = soonestSlot(dayjs())
    const from = day.hour(soonest.hour()).minute(soonest.minute()).second(0).millisecond(0)
    const free = firstFreeSlot(from, minutes, queue.data.data)
    if (!free.isSame(form.getFieldValue('time') as Dayjs, 'minute')) form.setFieldValue('time', free)
  }, [open, appointment, queue.data, day, minutes, form])

  const initial: Partial<Values> = appointment
    ? {
        patient_id: appointment.patient_id,
        doctor_id: appointment.doctor_id,
        date: dayjs(appointment.starts_at),
        time: dayjs(appointment.starts_at),
        duration_minutes: appointment.duration_minutes,
        type: appointment.type,
        reason: appointment.reason,
        remarks: appointment.remarks,
      }
    : {
        patient_id: patientId,
        doctor_id: doctorId ?? only,
        date: dayjs(date).isBefore(dayjs(), 'day') ? dayjs() : dayjs(date),
        time: soonestSlot(dayjs()),
        duration_minutes: 15,
        type: 'new',
        reason: '',
        remarks: '',
      }

  const submit = (v: Values) => {
    setProblem('')
    const startsAt = v.date.hour(v.time.hour()).minute(v.time.minute()).second(0).millisecond(0).format()
    const input = { patient_id: v.patient_id, doctor_id: v.doctor_id, starts_at: startsAt, duration_minutes: v.duration_minutes, type: v.type, reason: v.reason ?? '', remarks: v.remarks ?? '' }
    save.mutate(
      { id: appointment?.id, version: appointment?.version, input },
      {
        onSuccess: (a) => {
          void message.success(appointment ? t('appointments.saved') : t('appointments.booked', { number: a.queue_number }))
          onClose()
        },
        onError: (e) => {
          if (!(e instanceof ApiError)) return
          if (e.status === 422 && Object.keys(e.fields).length > 0) {
            const map: Record<string, keyof Values> = { starts_at: 'date' }
            form.setFields(Object.entries(e.fields).map(([f, errors]) => ({ name: map[f] ?? (f as keyof Values), errors })))
          } else {
            setProblem(e.display || t('errors.generic'))
          }
        },
      },
    )
  }

  return (
    <Modal afterOpenChange={focusFirstField}
      open={open}
      title={appointment ? t('appointments.editTitle') : t('appointments.bookTitle')}
      okText={appointment ? t('appointments.save') : t('appointments.book')}
      cancelText={t('appointments.cancelButton')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
      width={560}
    >
      {problem && <Alert type="error" showIcon title={problem} style={{ marginBottom: 16 }} role="alert" />}
      <Form<Values> form={form} name="booking" layout="vertical" initialValues={initial} onFinish={submit} preserve={false}>
        <Form.Item name="patient_id" label={t('appointments.patient')} rules={[{ required: true, message: t('validation.required') }]}>
          {appointment ? (
            <Select disabled options={[{ value: appointment.patient_id, label: `${appointment.patient.mrn} — ${fullName(appointment.patient)}` }]} />
          ) : (
            <PatientSelect placeholder={t('appointments.patientSearch')} notFound={t('appointments.patientNone')} />
          )}
        </Form.Item>
        <Form.Item name="doctor_id" label={t('appointments.doctor')} rules={[{ required: true, message: t('validation.required') }]}>
          <Select loading={doctors.isLoading} options={(doctors.data ?? []).map((d) => ({ value: d.id, label: d.name }))} />
        </Form.Item>
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap' }}>
          <Form.Item name="date" label={t('appointments.date')} rules={[{ required: true, message: t('validation.required') }]} style={{ flex: '1 1 160px' }}>
            <DateInput style={{ width: '100%' }} disabledDate={(d) => d.isBefore(dayjs(), 'day')} allowClear={false} />
          </Form.Item>
          <Form.Item name="time" label={t('appointments.time')} rules={[{ required: true, message: t('validation.required') }]} style={{ flex: '1 1 120px' }}>
            <TimePicker style={{ width: '100%' }} format="HH:mm" minuteStep={5} needConfirm={false} allowClear={false} />
          </Form.Item>
          <Form.Item name="duration_minutes" label={t('appointments.duration')} style={{ flex: '1 1 120px' }}>
            <Select options={DURATIONS.map((m) => ({ value: m, label: t('appointments.minutes', { count: m }) }))} />
          </Form.Item>
        </div>
        <Form.Item name="type" label={t('appointments.type')}>
          <Radio.Group optionType="button" options={TYPES.map((v) => ({ value: v, label: t(appointmentTypeLabel[v]) }))} />
        </Form.Item>
        <Form.Item name="reason" label={t('appointments.reason')} rules={[{ max: 500 }]}>
          <Input />
        </Form.Item>
        <Form.Item name="remarks" label={t('appointments.remarks')} rules={[{ max: 1000 }]}>
          <Input.TextArea autoSize={{ minRows: 2 }} />
        </Form.Item>
      </Form>
      {appointment && <AppointmentMessages id={appointment.id} />}
    </Modal>
  )
}

