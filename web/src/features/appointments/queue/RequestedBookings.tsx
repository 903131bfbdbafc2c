// The day's online booking requests, above the queue: each holds its time until the desk
// accepts it (for a patient it matched, another candidate, or a new patient registered from
// its details) or declines it (with a reason kept for the clinic).
import dayjs from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import { useCan } from '../../../lib/auth/can'
import { fullName } from '../../../lib/patient'
import { Alert } from '../../../light/Alert'
import { Button } from '../../../light/Button'
import { Dialog } from '../../../light/Dialog'
import { Field } from '../../../light/Field'
import { Input, Select, TextArea } from '../../../light/Input'
import { Segmented } from '../../../light/Segmented'
import { Tag } from '../../../light/Tag'
import { useToast } from '../../../light/Toast'
import { useAcceptBooking, type AcceptBody } from '../api/acceptBooking'
import { useBookingRequests, type BookingRequest } from '../api/bookingRequests'
import { useDeclineBooking } from '../api/declineBooking'
import styles from './queue.module.css'

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

type Registration = ReturnType<typeof registration>
type Required = 'last_name' | 'first_name' | 'birth_date' | 'sex'
const REQUIRED: Required[] = ['last_name', 'first_name', 'birth_date', 'sex']

/** Accepting a request: the matched patient, another candidate, or a new patient from its details. */
function AcceptModal({ request, onClose }: { request: BookingRequest; onClose: () => void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const accept = useAcceptBooking()
  const sure = request.matches.find((m) => m.sure)
  const [choice, setChoice] = useState<number | 'new'>(sure?.id ?? (request.matches.length ? request.matches[0]!.id : 'new'))
  const [values, setValues] = useState<Registration>(() => registration(request))
  const [missing, setMissing] = useState<Set<Required>>(new Set())
  const [error, setError] = useState<string | undefined>()
  const set = (k: keyof Registration, v: string) => {
    setValues((all) => ({ ...all, [k]: v }))
    setMissing((m) => (m.has(k as Required) ? new Set([...m].filter((x) => x !== k)) : m))
  }
  const ok = async () => {
    setError(undefined)
    try {
      if (choice === 'new') {
        const empty = REQUIRED.filter((k) => !values[k]?.trim())
        setMissing(new Set(empty))
        if (empty.length) return
        await accept.mutateAsync({ r: request, body: { register: values as AcceptBody['register'] } })
      } else await accept.mutateAsync({ r: request, body: { patient_id: choice } })
      toast.success(t('bookingRequests.accepted'))
      onClose()
    } catch (e) {
      if (e instanceof ApiError) setError(e.message)
      else throw e
    }
  }
  const message = (k: Required) => (missing.has(k) ? (k === 'sex' ? t('bookingRequests.sexRequired') : t('validation.required')) : undefined)
  const text = (k: 'last_name' | 'first_name' | 'phone' | 'email', label: string, type = 'text') => (
    <Field label={label} required={REQUIRED.includes(k as Required)} error={message(k as Required)}>
      {(ids) => <Input {...ids} type={type} maxLength={k.endsWith('name') ? 100 : undefined} value={values[k] ?? ''} onChange={(e) => set(k, e.target.value)} />}
    </Field>
  )
  return (
    <Dialog
      open
      title={t('bookingRequests.acceptTitle', { name: requestName(request) })}
      closeLabel={t('app.icons.close')}
      onClose={onClose}
      busy={accept.isPending}
      onSubmit={() => void ok()}
      footer={
        <>
          <Button onClick={onClose} disabled={accept.isPending}>
            {t('appointments.cancelButton')}
          </Button>
          <Button type="submit" variant="primary" disabled={accept.isPending}>
            {t('bookingRequests.accept')}
          </Button>
        </>
      }
    >
      <p className={styles.hint}>{t('bookingRequests.acceptHint')}</p>
      <Segmented<number | 'new'>
        layout="list"
        label={t('bookingRequests.acceptTitle', { name: requestName(request) })}
        value={choice}
        onChange={setChoice}
        options={[
          ...request.matches.map((m) => ({
            value: m.id,
            label: (
              <>
                {fullName(m)} · {m.birth_date} · {m.mrn} {m.phone && `· ${m.phone}`} {m.sure ? <Tag color="green">{t('bookingRequests.sure')}</Tag> : <Tag>{t('bookingRequests.possible')}</Tag>}
              </>
            ),
          })),
          { value: 'new' as const, label: t('bookingRequests.registerNew') },
        ]}
      />
      {choice === 'new' && (
        <div className={styles.fields}>
          {text('last_name', t('patients.fields.last_name'))}
          {text('first_name', t('patients.fields.first_name'))}
          <Field label={t('patients.fields.birth_date')} required error={message('birth_date')}>
            {(ids) => <Input {...ids} type="date" value={values.birth_date} onChange={(e) => set('birth_date', e.target.value)} />}
          </Field>
          <Field label={t('patients.fields.sex')} required error={message('sex')}>
            {(ids) => (
              <Select<string>
                {...ids}
                value={values.sex ?? ''}
                onChange={(v) => set('sex', v)}
                options={[{ value: '', label: '', disabled: true }, ...SEXES.map((s) => ({ value: s, label: t(`patients.sex.${s}`) }))]}
              />
            )}
          </Field>
          {text('phone', t('patients.fields.phone'), 'tel')}
          {text('email', t('patients.fields.email'), 'email')}
        </div>
      )}
      {error && (
        <div className={styles.error}>
          <Alert type="error" title={error} role="alert" />
        </div>
      )}
    </Dialog>
  )
}

/** Declining a request: a reason, kept for the clinic; the patient is told it could not be taken. */
function DeclineModal({ request, onClose }: { request: BookingRequest; onClose: () => void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const decline = useDeclineBooking()
  const [reason, setReason] = useState('')
  const blank = reason.trim() === ''
  return (
    <Dialog
      open
      title={t('bookingRequests.declineTitle', { name: requestName(request) })}
      closeLabel={t('app.icons.close')}
      onClose={onClose}
      busy={decline.isPending}
      onSubmit={() =>
        !blank &&
        void decline.mutateAsync({ r: request, reason }).then(() => {
          toast.success(t('bookingRequests.declined'))
          onClose()
        })
      }
      footer={
        <>
          <Button onClick={onClose} disabled={decline.isPending}>
            {t('appointments.cancelButton')}
          </Button>
          <Button type="submit" variant="danger" disabled={blank || decline.isPending}>
            {t('bookingRequests.decline')}
          </Button>
        </>
      }
    >
      <p className={styles.hint}>{t('bookingRequests.declineHint')}</p>
      <Field label={t('bookingRequests.declineReason')}>{(ids) => <TextArea {...ids} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />}</Field>
    </Dialog>
  )
}

/** The day's online booking requests, above the queue. */
export function RequestedBookings({ date, doctorId }: { date: string; doctorId?: number }) {
  const { t } = useTranslation()
  const canManage = useCan('manage appointment')
  const { data } = useBookingRequests(date, true)
  const [accepting, setAccepting] = useState<BookingRequest | null>(null)
  const [declining, setDeclining] = useState<BookingRequest | null>(null)
  const rows = (data ?? []).filter((r) => !doctorId || r.doctor_id === doctorId)
  if (rows.length === 0) return null
  return (
    <section aria-labelledby="requested-bookings" className={styles.requests}>
      <h3 id="requested-bookings" className={styles.requestsTitle}>
        {t('bookingRequests.title', { count: rows.length })}
      </h3>
      <div className={styles.requestList}>
        {rows.map((r) => (
          <div key={r.id} className={styles.request}>
            <span className={styles.requestWhat}>
              <Tag color="orange">{t('bookingRequests.requested')}</Tag>
              <strong>{dayjs(r.starts_at).format('HH:mm')}</strong>
              <span>{requestName(r)}</span>
              <span className={styles.secondary}>
                {r.birth_date} · {r.doctor_name} · {t(`appointments.types.${r.visit_type}`)}
              </span>
              {r.matches.some((m) => m.sure) ? <Tag color="green">{t('bookingRequests.knownPatient')}</Tag> : r.matches.length ? <Tag>{t('bookingRequests.maybeKnown')}</Tag> : <Tag color="blue">{t('bookingRequests.newPatient')}</Tag>}
            </span>
            {canManage && (
              <span className={styles.row}>
                <Button variant="primary" onClick={() => setAccepting(r)} aria-label={`${t('bookingRequests.accept')}: ${requestName(r)}`}>
                  {t('bookingRequests.accept')}
                </Button>
                <Button className={styles.dangerOutline} onClick={() => setDeclining(r)} aria-label={`${t('bookingRequests.decline')}: ${requestName(r)}`}>
                  {t('bookingRequests.decline')}
                </Button>
              </span>
            )}
          </div>
        ))}
      </div>
      {accepting && <AcceptModal request={accepting} onClose={() => setAccepting(null)} />}
      {declining && <DeclineModal request={declining} onClose={() => setDeclining(null)} />}
    </section>
  )
}
