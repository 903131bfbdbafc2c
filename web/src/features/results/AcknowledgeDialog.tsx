// The dialog that records how a critical result was acted on (CriticalAlertsBanner opens it):
// the alert's patient, test, value and range, when it was raised and where it stands, the
// e-mails sent about it, then how the result was received, how the patient was reached, what
// was done and, for a result received by telephone, its read-back. It opens at once on its
// details (read first, before any field), closes by Later, its close button or Escape, never
// by a click beside it, and is sent by its Acknowledge button only.
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../lib/api'
import { chartPath, fullName } from '../../lib/patient'
import { formatDayTime } from '../../lib/time'
import { Alert } from '../../light/Alert'
import { Button } from '../../light/Button'
import { Descriptions, type DescriptionItem } from '../../light/Descriptions'
import { Field } from '../../light/Field'
import { useForm } from '../../light/form'
import { FormDialog } from '../../light/FormDialog'
import { TextArea } from '../../light/Input'
import { RadioGroup } from '../../light/RadioGroup'
import { useToast } from '../../light/Toast'
import { useAcknowledge } from './api/acknowledgeAlert'
import type { CriticalAlert } from './api/types'
import { alertState } from './alertState'
import { rangeText, resultText } from './format'
import { FlagTag } from './ResultParts'
import own from './CriticalAlerts.module.css'
import styles from './results.module.css'

const CONTACTS = ['phone', 'in_person', 'message', 'not_reached', 'no_contact_needed'] as const
const RECEIVED_BY = ['system', 'telephone'] as const

interface AckValues {
  contact: string
  action: string
  received_by: string
  read_back: string
}

export function AcknowledgeDialog({ alert: a, onClose }: { alert: CriticalAlert; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const message = useToast()
  const ack = useAcknowledge()
  const form = useForm<AckValues>(
    { contact: '', action: '', received_by: '', read_back: '' },
    {
      received_by: (v) => (v ? undefined : t('results.receivedByRequired')),
      contact: (v) => (v ? undefined : t('results.contactRequired')),
      action: (v) => (v.trim() ? undefined : t('results.actionRequired')),
      read_back: (v, all) => (all.received_by === 'telephone' && !v.trim() ? t('results.readBackRequired') : undefined),
    },
  )
  const v = form.values
  const byTelephone = v.received_by === 'telephone'
  // The value the dialog opened on: a correction may carry the alert to another value while it
  // is open; the acknowledgement names the value read, and one written for the old value is
  // never sent for the new (the server refuses it too).
  const [seen, setSeen] = useState(a.result)
  const changed = seen.id !== a.result.id && resultText(t, seen, i18n.language) !== resultText(t, a.result, i18n.language)
  const submit = async () => {
    if (changed) return
    try {
      await ack.mutateAsync({ id: a.id, result_id: a.result.id, contact: v.contact, action: v.action.trim(), received_by: v.received_by, read_back: v.read_back.trim() })
      // A patient not reached keeps the alert open (and escalated): it says so.
      if (v.contact === 'not_reached') message.warning(t('results.notReachedSaved'))
      else message.success(t('results.acknowledged'))
      onClose()
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fields).length > 0) {
        const rest = form.fail(Object.fromEntries(Object.entries(e.fields).map(([name, errors]) => [name, errors.join(' ')])))
        if (rest.length) message.error(rest.join(' '))
        return
      }
      message.error((e as Error).message || t('errors.network'))
    }
  }
  const range = rangeText(t, a.result.range, a.result.unit, i18n.language)
  const details: DescriptionItem[] = [
    {
      key: 'patient',
      label: t('results.patient'),
      children: (
        <>
          <Link to={chartPath(a.patient)} onClick={onClose}>
            {fullName(a.patient)}
          </Link>
          {a.patient.phone && <> · {a.patient.phone}</>}
        </>
      ),
    },
    {
      key: 'test',
      label: t('results.test'),
      children: (
        <Link to={`/results/orders/${a.order_id}`} onClick={onClose}>
          {a.test_label}
        </Link>
      ),
    },
    {
      key: 'value',
      label: a.result.label,
      children: (
        <>
          <strong className={styles.strong} data-testid="critical-value">
            {resultText(t, a.result, i18n.language)}
          </strong>{' '}
          <FlagTag flag={a.result.flag} />
        </>
      ),
    },
    ...(range ? [{ key: 'range', label: t('results.range'), children: range }] : []),
    {
      key: 'raised',
      label: t('results.raisedAt'),
      children: (
        <>
          {formatDayTime(a.raised_at)} · {a.doctor_name}
          {alertState(t, a)}
        </>
      ),
    },
    ...(a.emails.length > 0
      ? [
          {
            key: 'emails',
            label: t('results.emails'),
            children: (
              <div className={own.stackTight}>
                {a.emails.map((m, i) => (
                  <span key={i} className={m.status === 'failed' || m.status === 'no_address' ? styles.danger : undefined} title={m.last_error || undefined}>
                    {t(m.withdrawal ? 'results.emailLineWithdrawal' : 'results.emailLine', { level: m.level, name: m.name, status: t(`results.emailStatus.${m.status}`) })}
                  </span>
                ))}
              </div>
            ),
          },
        ]
      : []),
  ]
  return (
    <FormDialog
      title={t('results.criticalTitleOne')}
      okText={t('results.acknowledge')}
      cancelText={t('results.later')}
      danger
      busy={ack.isPending}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      enterSubmits={false}
      maskClosable={false}
      okDisabled={changed}
      okTestId="critical-acknowledge"
    >
      {/* Focus lands here as it opens: the value is read before any field. */}
      <div tabIndex={-1} data-autofocus className={own.details}>
        {changed && (
          <div className={own.below}>
            <Alert
              type="error"
              role="alert"
              data-testid="critical-value-changed"
              title={t('results.valueChanged', { was: resultText(t, seen, i18n.language), now: resultText(t, a.result, i18n.language) })}
              action={
                <Button size="small" onClick={() => setSeen(a.result)} data-testid="critical-value-read">
                  {t('results.valueChangedRead')}
                </Button>
              }
            />
          </div>
        )}
        <div className={own.below}>
          <Descriptions column={1} items={details} />
        </div>
      </div>
      <div className={own.vertical}>
        <RadioGroup
          legend={t('results.receivedByLabel')}
          required
          value={v.received_by}
          error={form.errors.received_by}
          onChange={(x) => form.set('received_by', x)}
          options={RECEIVED_BY.map((r) => ({ value: r, label: t(`results.receivedBy.${r}`) }))}
        />
        <RadioGroup
          legend={t('results.contactLabel')}
          required
          value={v.contact}
          error={form.errors.contact}
          help={v.contact === 'not_reached' ? t('results.notReachedHint') : undefined}
          onChange={(x) => form.set('contact', x)}
          options={CONTACTS.map((c) => ({ value: c, label: t(`results.contacts.${c}`) }))}
        />
      </div>
      <Field label={t('results.actionLabel')} required error={form.errors.action}>
        {(c) => <TextArea {...c} maxLength={500} rows={2} className={own.grow} value={v.action} onChange={(e) => form.set('action', e.target.value)} />}
      </Field>
      <Field label={t('results.readBackLabel')} help={t('results.readBackHint')} required={byTelephone} error={form.errors.read_back}>
        {(c) => <TextArea {...c} maxLength={500} rows={1} className={own.grow} value={v.read_back} onChange={(e) => form.set('read_back', e.target.value)} />}
      </Field>
    </FormDialog>
  )
}
