import { Alert, App, Button, Card, Flex, Form, Input, Modal, Radio, Select, Space, Tag, Typography } from 'antd'
import dayjs from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import { useCan } from '../../../lib/auth/can'
import { fullName } from '../../../lib/patient'
import { useAcceptBooking, type AcceptBody } from '../api/acceptBooking'
import { useBookingRequests, type BookingRequest } from '../api/bookingRequests'
import { useDeclineBooking } from '../api/declineBooking'

const SEXES = ['female', 'male', 'other', 'unknown'] as const

/** The requester's name in the order the reader's language writes names. */
const requestName = (r: BookingRequest) => fullName({ first_name: r.first_name, middle_name: '', last_name: r.last_name })

/** The request's patient details as the registration form starts from them. */
export function registration(r: BookingRequest) {
  return {
    first_name: r.first_name,
    last_name: r.last_name,
    birth_date: r.birth_date,
    sex: undefined as string | undefined,
    phone: r.channel === 'sms' ? r.address : '',
    email: r.channel === 'email' ? r.address : '',
    message_language: r.language,
  }
}

/** Accepting a request: the matched patient, another candidate, or a new patient from its details. */
function AcceptModal({ request, onClose }: { request: BookingRequest; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const accept = useAcceptBooking()
  const sure = request.matches.find((m) => m.sure)
  const [choice, setChoice] = useState<number | 'new'>(sure?.id ?? (request.matches.length ? request.matches[0]!.id : 'new'))
  const [form] = Form.useForm<ReturnType<typeof registration>>()
  const [error, setError] = useState<string | undefined>()
  const ok = async () => {
    setError(undefined)
    try {
      if (choice === 'new') {
        const v = await form.validateFields()
        await accept.mutateAsync({ r: request, body: { register: { ...v, sex: v.sex } as AcceptBody['register'] } })
      } else await accept.mutateAsync({ r: request, body: { patient_id: choice } })
      void message.success(t('bookingRequests.accepted'))
      onClose()
    } catch (e) {
      if (e instanceof ApiError) setError(e.message)
      else if (!(e && typeof e === 'object' && 'errorFields' in e)) throw e
    }
  }
  return (
    <Modal open title={t('bookingRequests.acceptTitle', { name: requestName(request) })} okText={t('bookingRequests.accept')} confirmLoading={accept.isPending} onOk={() => void ok()} onCancel={onClose} destroyOnHidden>
      <Typography.Paragraph type="secondary">{t('bookingRequests.acceptHint')}</Typography.Paragraph>
      <Radio.Group value={choice} onChange={(e) => setChoice(e.target.value as number | 'new')} style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
        {request.matches.map((m) => (
          <Radio key={m.id} value={m.id}>
            {fullName(m)} · {m.birth_date} · {m.mrn} {m.phone && `· ${m.phone}`}{' '}
            {m.sure ? <Tag color="green">{t('bookingRequests.sure')}</Tag> : <Tag>{t('bookingRequests.possible')}</Tag>}
          </Radio>
        ))}
        <Radio value="new">{t('bookingRequests.registerNew')}</Radio>
      </Radio.Group>
      {choice === 'new' && (
        <Form form={form} layout="vertical" initialValues={registration(request)} style={{ marginTop: 16 }}>
          <Space wrap>
            <Form.Item name="last_name" label={t('patients.fields.last_name')} rules={[{ required: true }]}>
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item name="first_name" label={t('patients.fields.first_name')} rules={[{ required: true }]}>
              <Input maxLength={100} />
            </Form.Item>
            <Form.Item name="birth_date" label={t('patients.fields.birth_date')} rules={[{ required: true }]}>
              <Input type="date" />
            </Form.Item>
            <Form.Item name="sex" label={t('patients.fields.sex')} rules={[{ required: true, message: t('bookingRequests.sexRequired') }]}>
              <Select style={{ width: 160 }} options={SEXES.map((s) => ({ value: s, label: t(`patients.sex.${s}`) }))} />
            </Form.Item>
            <Form.Item name="phone" label={t('patients.fields.phone')}>
              <Input type="tel" />
            </Form.Item>
            <Form.Item name="email" label={t('patients.fields.email')}>
              <Input type="email" />
            </Form.Item>
            <Form.Item name="message_language" hidden>
              <Input />
            </Form.Item>
          </Space>
        </Form>
      )}
      {error && <Alert type="error" showIcon message={error} style={{ marginTop: 12 }} />}
    </Modal>
  )
}

/** Declining a request: a reason, kept for the clinic; the patient is told it could not be taken. */
function DeclineModal({ request, onClose }: { request: BookingRequest; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const decline = useDeclineBooking()
  const [reason, setReason] = useState('')
  return (
    <Modal
      open
      title={t('bookingRequests.declineTitle', { name: requestName(request) })}
      okText={t('bookingRequests.decline')}
      okButtonProps={{ danger: true, disabled: reason.trim() === '' }}
      confirmLoading={decline.isPending}
      onCancel={onClose}
      onOk={() =>
        void decline.mutateAsync({ r: request, reason }).then(() => {
          void message.success(t('bookingRequests.declined'))
          onClose()
        })
      }
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('bookingRequests.declineHint')}</Typography.Paragraph>
      <Input.TextArea aria-label={t('bookingRequests.declineReason')} placeholder={t('bookingRequests.declineReason')} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} autoFocus />
    </Modal>
  )
}

/** The day's online booking requests, above the queue: each holds its time until the desk accepts or declines it. */
export function RequestedBookings({ date, doctorId }: { date: string; doctorId?: number }) {
  const { t } = useTranslation()
  const canManage = useCan('manage appointment')
  const { data } = useBookingRequests(date, true)
  const [accepting, setAccepting] = useState<BookingRequest | null>(null)
  const [declining, setDeclining] = useState<BookingRequest | null>(null)
  const rows = (data ?? []).filter((r) => !doctorId || r.doctor_id === doctorId)
  if (rows.length === 0) return null
  return (
    <section aria-labelledby="requested-bookings" style={{ marginBottom: 16 }}>
      <Typography.Title level={3} id="requested-bookings" style={{ fontSize: 16 }}>
        {t('bookingRequests.title', { count: rows.length })}
      </Typography.Title>
      <Flex vertical gap={8}>
        {rows.map((r) => (
          <Card key={r.id} size="small" style={{ borderColor: '#fa8c16', background: '#fff7e6' }}>
            <Flex wrap gap={8} justify="space-between" align="center">
              <Space wrap size={[8, 4]}>
                <Tag color="orange">{t('bookingRequests.requested')}</Tag>
                <Typography.Text strong>{dayjs(r.starts_at).format('HH:mm')}</Typography.Text>
                <Typography.Text>
                  {requestName(r)}
                </Typography.Text>
                <Typography.Text type="secondary">
                  {r.birth_date} · {r.doctor_name} · {t(`appointments.types.${r.visit_type}`)}
                </Typography.Text>
                {r.matches.some((m) => m.sure) ? <Tag color="green">{t('bookingRequests.knownPatient')}</Tag> : r.matches.length ? <Tag>{t('bookingRequests.maybeKnown')}</Tag> : <Tag color="blue">{t('bookingRequests.newPatient')}</Tag>}
              </Space>
              {canManage && (
                <Space>
                  <Button type="primary" onClick={() => setAccepting(r)} aria-label={`${t('bookingRequests.accept')}: ${requestName(r)}`}>
                    {t('bookingRequests.accept')}
                  </Button>
                  <Button danger onClick={() => setDeclining(r)} aria-label={`${t('bookingRequests.decline')}: ${requestName(r)}`}>
                    {t('bookingRequests.decline')}
                  </Button>
                </Space>
              )}
            </Flex>
          </Card>
        ))}
      </Flex>
      {accepting && <AcceptModal request={accepting} onClose={() => setAccepting(null)} />}
      {declining && <DeclineModal request={declining} onClose={() => setDeclining(null)} />}
    </section>
  )
}
