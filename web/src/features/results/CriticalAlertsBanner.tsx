// Critical results waiting for acknowledgement (CriticalAlerts.tsx watches for them): the
// banner listing them and the dialog that records how each was acted on. A new alert opens its
// dialog at once; one already seen waits in the banner. Loaded with the first alert. Each
// alert's waiting time ticks (useNow), without asking the server again. Alerts withdrawn (the
// value no longer stands) have a banner of their own: why, whether and by whom the alert had
// been acknowledged and what was done then, and the follow-up to record (FollowupDialog). An
// alert withdrawn while its acknowledgement is being written says so.
import { Alert, App, Button, Descriptions, Form, Input, Modal, Radio, Space, Typography } from 'antd'
import type { TFunction } from 'i18next'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { chartPath, fullName } from '../../lib/patient'
import { ApiError } from '../../lib/api'
import { formatDayTime } from '../../lib/time'
import { useAcknowledge } from './api/acknowledgeAlert'
import { splitAlerts } from './api/listAlerts'
import type { CriticalAlert } from './api/types'
import { FollowupDialog } from './FollowupDialog'
import { withdrawnWhy } from './OrderAlerts'
import { isCritical, minutesSince, rangeText, resultText } from './format'
import { FlagTag } from './ResultParts'
import { useNow } from './useNow'

const CONTACTS = ['phone', 'in_person', 'message', 'not_reached', 'no_contact_needed'] as const
const RECEIVED_BY = ['system', 'telephone'] as const

/** Where an alert stands: escalated (to which level), and the last attempt that did not reach the patient. */
function alertState(t: TFunction, a: CriticalAlert) {
  return (
    <>
      {a.escalated_lead_at ? (
        <Typography.Text type="danger"> · {t('results.escalatedLeadTag')}</Typography.Text>
      ) : (
        a.escalated_at && <Typography.Text type="danger"> · {t('results.escalatedTag')}</Typography.Text>
      )}
      {a.not_reached_at && (
        <Typography.Text type="danger"> · {t('results.notReachedAt', { time: formatDayTime(a.not_reached_at), name: a.not_reached_by_name })}</Typography.Text>
      )}
    </>
  )
}

/** The critical results withdrawn, for those the alerts had reached and whoever acknowledged them. */
export function WithdrawnBanner({ alerts }: { alerts: CriticalAlert[] }) {
  const { t, i18n } = useTranslation()
  const ack = useAcknowledge()
  const [following, setFollowing] = useState<number | null>(null)
  return (
    <>
      <Alert
        type="warning"
        showIcon
        role="alert"
        data-testid="withdrawn-banner"
        title={t('results.withdrawnBannerTitle')}
        description={
          <Space orientation="vertical" size={6}>
            {alerts.map((a) => (
              <div key={a.id} data-testid={`withdrawn-${a.id}`}>
                {fullName(a.patient)} —{' '}
                <Link to={`/results/orders/${a.order_id}`}>
                  {t('results.withdrawnBanner', {
                    result: `${a.result.label}: ${resultText(t, a.result, i18n.language)}`,
                    reason: withdrawnWhy(t, a),
                  })}
                </Link>
                {a.withdrawn_at && (
                  <Typography.Text type="secondary">
                    {' '}
                    · {formatDayTime(a.withdrawn_at)} · {a.withdrawn_by_name}
                  </Typography.Text>
                )}
                <div>
                  <StandingValue alert={a} />
                </div>
                <div>
                  {a.acknowledged_at ? (
                    <Typography.Text strong data-testid="withdrawn-acknowledged">
                      {t('results.withdrawnAcknowledged', { name: a.acknowledged_by_name, time: formatDayTime(a.acknowledged_at), action: a.action })}
                    </Typography.Text>
                  ) : (
                    <Typography.Text type="secondary">{t('results.withdrawnNotAcknowledged')}</Typography.Text>
                  )}
                </div>
                {!a.withdrawal_seen_at && (
                  <Button size="small" onClick={() => setFollowing(a.id)} data-testid={`followup-${a.id}`} style={{ marginTop: 4 }}>
                    {t('results.followupOpen')}
                  </Button>
                )}
              </div>
            ))}
          </Space>
        }
      />
      {following !== null && (
        <FollowupDialog onSubmit={(followup, note) => ack.mutateAsync({ id: following, followup, note })} onClose={() => setFollowing(null)} />
      )}
    </>
  )
}

/** The value of a withdrawn alert's analyte that now stands, and whether it is critical itself (its own alert). */
export function StandingValue({ alert: a }: { alert: CriticalAlert }) {
  const { t, i18n } = useTranslation()
  if (!a.standing) return <Typography.Text type="secondary">{t('results.withdrawnNoneStanding')}</Typography.Text>
  const result = `${a.standing.label}: ${resultText(t, a.standing, i18n.language)}`
  return isCritical(a.standing.flag) ? (
    <Typography.Text type="danger" strong data-testid="withdrawn-standing">
      {t('results.withdrawnStandingCritical', { result })} <FlagTag flag={a.standing.flag} />
    </Typography.Text>
  ) : (
    <Typography.Text strong data-testid="withdrawn-standing">
      {t('results.withdrawnStanding', { result })} <FlagTag flag={a.standing.flag} />
    </Typography.Text>
  )
}

/**
 * Critical values recorded against the wrong patient whose owner nobody has found yet (C2 of the
 * laboratory clinician's review): they escalate as any alert until resolved on the misfiled
 * list, where this banner leads; nothing here acknowledges them.
 */
export function MisfiledBanner({ alerts }: { alerts: CriticalAlert[] }) {
  const { t, i18n } = useTranslation()
  return (
    <Alert
      type="error"
      showIcon
      role="alert"
      data-testid="misfiled-banner"
      title={t('results.misfiledAlertTitle')}
      description={
        <Space orientation="vertical" size={2}>
          {alerts.map((a) => (
            <span key={a.id} data-testid={`misfiled-alert-${a.id}`}>
              {t('results.misfiledAlertItem', {
                result: `${a.result.label}: ${resultText(t, a.result, i18n.language)}`,
                name: fullName(a.patient),
                time: formatDayTime(a.raised_at),
              })}
              {alertState(t, a)}
            </span>
          ))}
          <Typography.Text type="secondary">{t('results.misfiledAlertHint')}</Typography.Text>
        </Space>
      }
      action={
        <Link to="/results/overdue" data-testid="misfiled-banner-open">
          {t('results.misfiledAlertAction')}
        </Link>
      }
    />
  )
}

export default function CriticalAlertsBanner({ alerts: all }: { alerts: CriticalAlert[] }) {
  const { open: list, withdrawn, misfiled } = splitAlerts(all)
  return (
    <>
      {misfiled.length > 0 && <MisfiledBanner alerts={misfiled} />}
      {withdrawn.length > 0 && <WithdrawnBanner alerts={withdrawn} />}
      <OpenBanner alerts={list} withdrawn={withdrawn} />
    </>
  )
}

function OpenBanner({ alerts: list, withdrawn }: { alerts: CriticalAlert[]; withdrawn: CriticalAlert[] }) {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const [open, setOpen] = useState<number | null>(null)
  const now = useNow()
  const seen = useRef(new Set<number>())
  // A new alert opens its dialog at once; one already seen waits in the banner.
  useEffect(() => {
    const fresh = list.find((a) => !seen.current.has(a.id))
    list.forEach((a) => seen.current.add(a.id))
    if (fresh && !list.some((a) => a.id === open)) setOpen(fresh.id)
  }, [list, open])
  // The alert being acknowledged was withdrawn meanwhile: its dialog closes (it is no longer
  // among the open ones), saying why and where to record what was done.
  const warned = useRef<number | null>(null)
  useEffect(() => {
    if (open !== null && warned.current !== open && withdrawn.some((a) => a.id === open)) {
      warned.current = open
      void message.warning(t('results.withdrawnWhileOpen'))
    }
  }, [withdrawn, open, message, t])
  const current = list.find((a) => a.id === open)
  return (
    <>
      {list.length > 0 && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="critical-banner"
          title={t('results.criticalBanner', { count: list.length })}
          description={
            <Space orientation="vertical" size={2}>
              {list.map((a) => (
                <span key={a.id}>
                  {fullName(a.patient)} — {a.result.label}: {resultText(t, a.result, i18n.language)} <FlagTag flag={a.result.flag} /> ·{' '}
                  <span data-testid="critical-waiting">{t('results.waiting', { count: minutesSince(a.raised_at, now) })}</span>
                  {alertState(t, a)}
                </span>
              ))}
            </Space>
          }
          action={
            <Button danger type="primary" onClick={() => setOpen(list[0].id)} data-testid="critical-open">
              {t('results.acknowledge')}
            </Button>
          }
        />
      )}
      {current && <AcknowledgeDialog key={current.id} alert={current} onClose={() => setOpen(null)} />}
    </>
  )
}

interface AckValues {
  contact?: string
  action?: string
  received_by?: string
  read_back?: string
}

function AcknowledgeDialog({ alert: a, onClose }: { alert: CriticalAlert; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const ack = useAcknowledge()
  const [form] = Form.useForm<AckValues>()
  const byTelephone = Form.useWatch('received_by', form) === 'telephone'
  const notReached = Form.useWatch('contact', form) === 'not_reached'
  // The value the dialog opened on: a correction may carry the alert to another value while it
  // is open; the acknowledgement names the value read, and one written for the old value is
  // never sent for the new (the server refuses it too).
  const [seen, setSeen] = useState(a.result)
  const changed = seen.id !== a.result.id && resultText(t, seen, i18n.language) !== resultText(t, a.result, i18n.language)
  const submit = async () => {
    if (changed) return
    const v = await form.validateFields()
    try {
      await ack.mutateAsync({ id: a.id, result_id: a.result.id, contact: v.contact!, action: v.action!.trim(), received_by: v.received_by!, read_back: v.read_back?.trim() ?? '' })
      // A patient not reached keeps the alert open (and escalated): it says so.
      if (v.contact === 'not_reached') void message.warning(t('results.notReachedSaved'))
      else void message.success(t('results.acknowledged'))
      onClose()
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fields).length > 0) {
        form.setFields(Object.entries(e.fields).map(([name, errors]) => ({ name: name as keyof AckValues, errors })))
        return
      }
      void message.error((e as Error).message)
    }
  }
  return (
    <Modal
      open
      title={t('results.criticalTitleOne')}
      okText={t('results.acknowledge')}
      cancelText={t('results.later')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={ack.isPending}
      maskClosable={false}
      okButtonProps={{ danger: true, disabled: changed, 'data-testid': 'critical-acknowledge' } as never}
    >
      {changed && (
        <Alert
          type="error"
          showIcon
          role="alert"
          data-testid="critical-value-changed"
          style={{ marginBottom: 16 }}
          title={t('results.valueChanged', { was: resultText(t, seen, i18n.language), now: resultText(t, a.result, i18n.language) })}
          action={
            <Button size="small" onClick={() => setSeen(a.result)} data-testid="critical-value-read">
              {t('results.valueChangedRead')}
            </Button>
          }
        />
      )}
      <Descriptions size="small" column={1} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('results.patient')}>
          <Link to={chartPath(a.patient)} onClick={onClose}>
            {fullName(a.patient)}
          </Link>
          {a.patient.phone && <> · {a.patient.phone}</>}
        </Descriptions.Item>
        <Descriptions.Item label={t('results.test')}>
          <Link to={`/results/orders/${a.order_id}`} onClick={onClose}>
            {a.test_label}
          </Link>
        </Descriptions.Item>
        <Descriptions.Item label={a.result.label}>
          <Typography.Text strong data-testid="critical-value">
            {resultText(t, a.result, i18n.language)}
          </Typography.Text>{' '}
          <FlagTag flag={a.result.flag} />
        </Descriptions.Item>
        {rangeText(t, a.result.range, a.result.unit, i18n.language) && (
          <Descriptions.Item label={t('results.range')}>{rangeText(t, a.result.range, a.result.unit, i18n.language)}</Descriptions.Item>
        )}
        <Descriptions.Item label={t('results.raisedAt')}>
          {/* One block: the item lays its children out as flex items, which broke words apart. */}
          <div>
            {formatDayTime(a.raised_at)} · {a.doctor_name}
            {alertState(t, a)}
          </div>
        </Descriptions.Item>
        {a.emails.length > 0 && (
          <Descriptions.Item label={t('results.emails')}>
            <Space orientation="vertical" size={0}>
              {a.emails.map((m, i) => (
                <Typography.Text key={i} type={m.status === 'failed' || m.status === 'no_address' ? 'danger' : undefined} title={m.last_error || undefined}>
                  {t(m.withdrawal ? 'results.emailLineWithdrawal' : 'results.emailLine', { level: m.level, name: m.name, status: t(`results.emailStatus.${m.status}`) })}
                </Typography.Text>
              ))}
            </Space>
          </Descriptions.Item>
        )}
      </Descriptions>
      <Form<AckValues> form={form} layout="vertical" requiredMark>
        <Form.Item name="received_by" label={t('results.receivedByLabel')} rules={[{ required: true, message: t('results.receivedByRequired') }]}>
          <Radio.Group>
            <Space orientation="vertical">
              {RECEIVED_BY.map((r) => (
                <Radio key={r} value={r}>
                  {t(`results.receivedBy.${r}`)}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="contact"
          label={t('results.contactLabel')}
          rules={[{ required: true, message: t('results.contactRequired') }]}
          extra={notReached ? t('results.notReachedHint') : undefined}
        >
          <Radio.Group>
            <Space orientation="vertical">
              {CONTACTS.map((c) => (
                <Radio key={c} value={c}>
                  {t(`results.contacts.${c}`)}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="action" label={t('results.actionLabel')} rules={[{ required: true, whitespace: true, message: t('results.actionRequired') }]}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        <Form.Item
          name="read_back"
          label={t('results.readBackLabel')}
          extra={t('results.readBackHint')}
          required={byTelephone}
          rules={[{ required: byTelephone, whitespace: true, message: t('results.readBackRequired') }]}
        >
          <Input.TextArea maxLength={500} autoSize={{ minRows: 1, maxRows: 3 }} />
        </Form.Item>
      </Form>
    </Modal>
  )
}
