import { EyeOutlined, LockOutlined, UnlockOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Empty, Form, Input, List, Modal, Radio, Select, Space, Tag, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DateInput } from '../../components/DateInput'
import { useCan } from '../../lib/auth/can'
import { showFormErrors } from '../../lib/formErrors'
import { formatDay, formatDayTime } from '../../lib/time'
import { holdCategories, holdItem, type Hold } from './api/holdItem'
import { useReleased } from './api/listReleased'
import { useRefreshRelease, useReleaseStatuses, type ReleaseKind, type ReleaseStatus } from './api/release'
import { releaseItem } from './api/releaseItem'
import { ListMeta } from '../../components/ListMeta'

/** Who answers for an item of each kind, and so may release or hold it. */
const answersFor: Record<ReleaseKind, string> = { result: 'review results', document: 'issue documents', prescription: 'write prescription' }

function statusTag(s: ReleaseStatus, t: (k: string) => string) {
  if (s.visible) return <Tag color="green">{t('release.visible')}</Tag>
  if (s.why === 'held') return <Tag color="orange">{t('release.notVisibleHeld')}</Tag>
  if (s.why === 'withheld') return <Tag color="red">{t('release.notVisibleWithheld')}</Tag>
  return <Tag>{t('release.notVisible')}</Tag>
}

/** What the doctor should weigh before releasing s: a result usually given in person, a value outside the usual range, a document that prints results. */
function releaseWarnings(s: ReleaseStatus, t: (k: string) => string) {
  const out: string[] = []
  if (s.sensitive) out.push(t('release.warnInPerson'))
  if (s.abnormal) out.push(t('release.warnAbnormal'))
  if (s.prints_results) out.push(t('release.warnPrintsResults'))
  return out
}

/** The line saying who held or released it, and a hold's kind, category and review-by day. */
function decisionLine(s: ReleaseStatus, t: (k: string, o?: Record<string, unknown>) => string) {
  const d = s.decision
  if (!d) return null
  if (d.decision !== 'held') return t('release.releasedBy', { name: d.decided_by_name, at: formatDayTime(d.decided_at) })
  const parts = [t(d.hold_kind === 'withhold' ? 'release.withheldBy' : 'release.heldBy', { name: d.decided_by_name, at: formatDayTime(d.decided_at) })]
  if (d.category) parts.push(t(`release.category.${d.category}`))
  if (d.review_by) parts.push(t('release.reviewByOn', { day: formatDay(d.review_by) }))
  return parts.join(' · ') + (d.reason ? ` — ${d.reason}` : '')
}

/** The chart's card of what the patient can see: each result, document and prescription, why (not), their openings, and the doctor's release or hold. */
export function PatientRelease({ patientId }: { patientId: number }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const refresh = useRefreshRelease(patientId)
  const { modal } = App.useApp()
  const [holding, setHolding] = useState<ReleaseStatus | null>(null)
  const can = {
    result: useCan(answersFor.result),
    document: useCan(answersFor.document),
    prescription: useCan(answersFor.prescription),
  }
  const { data, isLoading } = useReleaseStatuses(patientId)
  const [preview, setPreview] = useState(false)
  const done = (text: string) => {
    message.success(text)
    return refresh()
  }
  const doRelease = (s: ReleaseStatus) => releaseItem(s.kind, s.id, s.version).then(() => done(t('release.released')))
  // An item with something to weigh (given in person, abnormal, a document printing results) asks first.
  const release = (s: ReleaseStatus) => {
    const warnings = releaseWarnings(s, t)
    if (warnings.length === 0) return void doRelease(s).catch(() => undefined)
    modal.confirm({
      title: t('release.releaseTitle', { title: s.title }),
      okText: t('release.release'),
      cancelText: t('release.close'),
      content: (
        <Space orientation="vertical" size={8} style={{ width: '100%' }}>
          {warnings.map((w) => (
            <Alert key={w} type="warning" showIcon title={w} />
          ))}
        </Space>
      ),
      onOk: () => doRelease(s).catch(() => undefined),
    })
  }
  return (
    <Card title={t('release.title')}>
      <Typography.Paragraph type="secondary">{t('release.hint')}</Typography.Paragraph>
      <Button size="small" icon={<EyeOutlined aria-hidden />} onClick={() => setPreview(true)}>
        {t('release.preview')}
      </Button>
      <List
        loading={isLoading}
        dataSource={data ?? []}
        rowKey={(s) => `${s.kind}-${s.id}`}
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('release.none')} /> }}
        renderItem={(s) => (
          <List.Item data-testid="release-item" aria-label={s.title}>
            <ListMeta
              title={
                <Space wrap size={6}>
                  <span>{s.title}</span>
                  <Tag bordered={false}>{t(`release.kind.${s.kind}`)}</Tag>
                  {statusTag(s, t)}
                  {s.sensitive && <Tag color="purple">{t('release.inPersonTag')}</Tag>}
                </Space>
              }
              description={
                <Space orientation="vertical" size={2} style={{ width: '100%' }}>
                  <Typography.Text type="secondary">
                    {formatDay(s.date)} · {t(`release.why.${s.why}`)}
                  </Typography.Text>
                  {s.decision && (
                    <Typography.Text type="secondary">{decisionLine(s, t)}</Typography.Text>
                  )}
                  {s.hold_due && (
                    <span>
                      <Tag color="gold">{t('release.holdDue')}</Tag>
                    </span>
                  )}
                  {s.withdrawn && (
                    <Typography.Text type="warning">
                      {t(['withdrawn', 'no_result', 'cancelled'].includes(s.why) ? 'release.withdrawnShown' : 'release.changedShown')}
                    </Typography.Text>
                  )}
                  <Typography.Text type="secondary">
                    {s.openings.count === 0 ? t('release.notOpened') : t('release.opened', { count: s.openings.count, at: formatDayTime(s.openings.latest[0]) })}
                  </Typography.Text>
                  {can[s.kind] && (s.can_release || s.can_hold) && (
                    <Space wrap size={12}>
                      {s.can_release && (
                        <Button size="small" icon={<UnlockOutlined aria-hidden />} aria-label={t('release.releaseNamed', { title: s.title })} onClick={() => release(s)}>
                          {s.decision?.decision === 'held' ? t('release.releaseAgain') : t('release.release')}
                        </Button>
                      )}
                      {s.can_hold && (
                        <Button size="small" icon={<LockOutlined aria-hidden />} aria-label={t('release.holdNamed', { title: s.title })} onClick={() => setHolding(s)}>
                          {s.decision?.decision === 'held' ? t('release.holdChange') : t('release.hold')}
                        </Button>
                      )}
                    </Space>
                  )}
                </Space>
              }
            />
          </List.Item>
        )}
      />
      <Modal open={preview} title={t('release.previewTitle')} footer={null} onCancel={() => setPreview(false)} destroyOnHidden>
        <PatientPreview patientId={patientId} />
      </Modal>
      {holding && (
        <HoldDialog
          item={holding}
          onClose={() => setHolding(null)}
          onHeld={(kind) => {
            setHolding(null)
            return done(t(kind === 'withhold' ? 'release.withheldDone' : 'release.heldDone'))
          }}
        />
      )}
    </Card>
  )
}

interface HoldForm {
  hold_kind: Hold['hold_kind']
  category: Hold['category']
  reason: string
  review_by: Dayjs
}

/** How long a hold lasts before the chart shows it as due for review, unless the doctor says. */
const REVIEW_DAYS = 30

/** The hold dialog: discuss first (the patient reads only that their doctor will discuss it) or withhold (the patient sees nothing), the category of reason, the reason, and when to review it. */
export function HoldDialog({ item, onClose, onHeld }: { item: ReleaseStatus; onClose(): void; onHeld(kind: Hold['hold_kind']): unknown }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<HoldForm>()
  const [saving, setSaving] = useState(false)
  const kind = Form.useWatch('hold_kind', form)
  const d = item.decision?.decision === 'held' ? item.decision : null
  const initial: Partial<HoldForm> = {
    hold_kind: (d?.hold_kind as Hold['hold_kind']) || undefined,
    category: (d?.category as Hold['category']) || undefined,
    reason: d?.reason ?? '',
    review_by: dayjs().add(REVIEW_DAYS, 'day'),
  }
  const submit = async (v: HoldForm) => {
    setSaving(true)
    try {
      await holdItem(item.kind, item.id, item.version, { hold_kind: v.hold_kind, category: v.category, reason: v.reason.trim(), review_by: v.review_by.format('YYYY-MM-DD') })
      await onHeld(v.hold_kind)
    } catch (e) {
      showFormErrors(form, message, e)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Modal
      open
      title={t('release.holdTitle', { title: item.title })}
      okText={kind === 'withhold' ? t('release.withhold') : t('release.hold')}
      okButtonProps={{ loading: saving, danger: kind === 'withhold' }}
      cancelText={t('release.close')}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" initialValues={initial} onFinish={(v) => void submit(v)} requiredMark={false}>
        <Form.Item name="hold_kind" label={t('release.holdKindLabel')} rules={[{ required: true, message: t('release.holdKindRequired') }]}>
          <Radio.Group style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
            <Radio value="discuss">
              <Space orientation="vertical" size={0}>
                <span>{t('release.holdKind.discuss')}</span>
                <Typography.Text type="secondary">{t('release.holdKind.discussHelp')}</Typography.Text>
              </Space>
            </Radio>
            <Radio value="withhold">
              <Space orientation="vertical" size={0}>
                <span>{t('release.holdKind.withhold')}</span>
                <Typography.Text type="secondary">{t('release.holdKind.withholdHelp')}</Typography.Text>
              </Space>
            </Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item name="category" label={t('release.categoryLabel')} rules={[{ required: true, message: t('release.categoryRequired') }]}>
          <Select options={holdCategories.map((c) => ({ value: c, label: t(`release.category.${c}`) }))} placeholder={t('release.categoryLabel')} />
        </Form.Item>
        <Form.Item name="reason" label={t('release.holdReason')} extra={t('release.holdHelp')} rules={[{ required: true, whitespace: true, message: t('release.holdReasonRequired') }]}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 5 }} />
        </Form.Item>
        <Form.Item name="review_by" label={t('release.reviewBy')} extra={t('release.reviewByHelp')} rules={[{ required: true, message: t('release.reviewByRequired') }]}>
          <DateInput allowClear={false} style={{ width: '100%' }} disabledDate={(day) => day.isBefore(dayjs(), 'day') || day.isAfter(dayjs().add(1, 'year'), 'day')} />
        </Form.Item>
      </Form>
    </Modal>
  )
}

/** What the patient sees, as they see it (in the user's language). */
function PatientPreview({ patientId }: { patientId: number }) {
  const { t } = useTranslation()
  const { data, isLoading } = useReleased(patientId, true)
  return (
    <List
      loading={isLoading}
      dataSource={data ?? []}
      rowKey={(i) => `${i.kind}-${i.id}`}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('release.nothingSeen')} /> }}
      renderItem={(i) => (
        <List.Item>
          <ListMeta
            title={
              <Space wrap size={6}>
                <span>{i.title}</span>
                {i.corrected && <Tag color="blue">{t('release.corrected')}</Tag>}
              </Space>
            }
            description={
              <Space orientation="vertical" size={2}>
                <Typography.Text type="secondary">{formatDay(i.date)}</Typography.Text>
                {(i.held || i.withdrawn) && <Typography.Text>{i.note}</Typography.Text>}
                {(i.results ?? []).map((v) => (
                  <Typography.Text key={v.name}>
                    {v.name}: {v.value}
                    {v.flag_text && ` — ${v.flag_text}`}
                    {v.range && ` (${t('release.usualRange', { range: v.range })})`}
                    {v.corrected && ` · ${t('release.corrected')}`}
                  </Typography.Text>
                ))}
              </Space>
            }
          />
        </List.Item>
      )}
    />
  )
}
