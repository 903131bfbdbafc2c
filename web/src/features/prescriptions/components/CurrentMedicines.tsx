import { CheckOutlined, EditOutlined, PlusOutlined, StopOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Collapse, Flex, Form, Input, List, Modal, Radio, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { LineFindings } from '../../../components/MedicineSafety'
import { useCan } from '../../../lib/auth/can'
import { showFormErrors } from '../../../lib/formErrors'
import { formatDay, formatMonth } from '../../../lib/time'
import {
  useConfirmCurrentMedicine,
  useCurrentMedicines,
  useRecordTakesNone,
  useSaveCurrentMedicine,
  useStopCurrentMedicine,
  useTakesNone,
  type CurrentMedicine,
  type CurrentMedicineInput,
} from '../api/currentMedicines'
import { MedicineInput } from './PrescriptionEditor'

// A patient's current medicines (issue 55, M4): those prescribed here (read-only, from the
// supply of issued prescriptions) and those the nurse or doctor records as taken from
// elsewhere or over the counter, which the safety check counts the same way.

const SOURCE_COLOUR = { here: 'green', elsewhere: 'blue', otc: 'purple' } as const

/** Who keeps the list: the nurse and the doctor (the server's word). */
const useCanKeep = () => {
  const nurse = useCan('record vitals')
  const doctor = useCan('write prescription')
  return nurse || doctor
}

/** A start as recorded (a day, a month or a year) in the user's format. */
export function partialDay(s: string) {
  if (/^\d{4}-\d{2}-\d{2}$/.test(s)) return formatDay(s)
  if (/^\d{4}-\d{2}$/.test(s)) return formatMonth(`${s}-01T00:00:00`)
  return s
}

/** Reads a start or stop typed in the user's order (05.03.2024, 03/2024) as the API takes it; anything else as typed, for the server to refuse. */
export function readPartialDay(text: string) {
  const s = text.trim()
  const day = /^(\d{1,2})[./](\d{1,2})[./](\d{4})$/.exec(s)
  if (day) return `${day[3]}-${day[2].padStart(2, '0')}-${day[1].padStart(2, '0')}`
  const month = /^(\d{1,2})[./](\d{4})$/.exec(s)
  if (month) return `${month[2]}-${month[1].padStart(2, '0')}`
  return s
}

const today = () => {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** One medicine: what, how, where from, since when, who prescribed it, and when it was last confirmed. */
function MedicineLine({ m }: { m: CurrentMedicine }) {
  const { t } = useTranslation()
  const how = [m.dose, m.frequency].filter(Boolean).join(', ')
  const facts = [
    m.started_on ? t('currentMeds.since', { date: partialDay(m.started_on) }) : t('currentMeds.sinceUnknown'),
    m.prescriber && t('currentMeds.prescribedBy', { name: m.prescriber }),
    m.source === 'here'
      ? m.supply_until && t('currentMeds.supplyUntil', { date: formatDay(m.supply_until) })
      : t('currentMeds.recorded', { date: formatDay(m.recorded_at), name: m.recorded_by }),
    m.source !== 'here' &&
      (m.confirmed_at ? t('currentMeds.confirmed', { date: formatDay(m.confirmed_at), name: m.confirmed_by ?? '' }) : t('currentMeds.notConfirmed')),
  ].filter(Boolean)
  return (
    <div style={{ minWidth: 0 }}>
      <div>
        <strong>{m.medicine}</strong>
        {how && <span>, {how}</span>}
      </div>
      <Space size={[4, 4]} wrap style={{ marginTop: 4 }}>
        <Tag color={SOURCE_COLOUR[m.source]}>{t(`currentMeds.source.${m.source}`)}</Tag>
        {m.source !== 'here' && <ReadAsTag m={m} />}
        {staleSince(m) && (
          <Tag color="orange" title={t('currentMeds.staleHint')}>
            {t('currentMeds.stale', { date: formatDay(staleSince(m) ?? '') })}
          </Tag>
        )}
      </Space>
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 13 }}>
        {facts.join(' · ')}
      </Typography.Text>
    </div>
  )
}

/** ATC groups of high-alert medicines (ISMP): anticoagulants, insulins and other antidiabetics, opioids, methotrexate. */
const HIGH_ALERT_ATC = ['B01AA', 'B01AB', 'B01AE', 'B01AF', 'A10A', 'A10B', 'N02A', 'L01BA01', 'L04AX03']

/** A high-alert medicine is confirmed one by one, never in a "confirm all" (m5). */
export const highAlert = (m: CurrentMedicine) => (m.read_as ?? []).some((n) => HIGH_ALERT_ATC.some((code) => n.atc?.startsWith(code)))

/** A recorded medicine nobody has confirmed at a visit for this many days is flagged (m7). */
const STALE_DAYS = 180

/** The day a recorded medicine was last heard of (confirmed, else recorded), when longer ago than STALE_DAYS. */
export function staleSince(m: CurrentMedicine, now = Date.now()) {
  if (m.source === 'here') return null
  const last = m.confirmed_at ?? m.recorded_at
  return now - new Date(last).getTime() > STALE_DAYS * 86_400_000 ? last : null
}

/** What the safety check read a recorded medicine as (M1): its substances, or "not recognised" when it read nothing and so cannot see it. */
function ReadAsTag({ m }: { m: CurrentMedicine }) {
  const { t } = useTranslation()
  if (m.read_as?.length === 0)
    return (
      <Tag color="red" title={t('currentMeds.notRecognisedHint')}>
        {t('currentMeds.notRecognised')}
      </Tag>
    )
  if (m.read_as?.length) {
    const names = m.read_as.map((n) => [n.name, n.atc].filter(Boolean).join(' ')).join(', ')
    return <Tag title={m.medicine_id === null ? t('currentMeds.typedHint') : undefined}>{t('currentMeds.readAs', { names })}</Tag>
  }
  if (m.medicine_id !== null) return null
  return (
    <Tag color="orange" title={t('currentMeds.typedHint')}>
      {t('currentMeds.typed')}
    </Tag>
  )
}

/** The list reviewed against itself (C1): each medicine that duplicates or interacts with another listed, for a doctor to resolve. */
function ListReview({ active }: { active: CurrentMedicine[] }) {
  const { t } = useTranslation()
  const flagged = active.filter((m) => m.findings?.length)
  const count = flagged.reduce((n, m) => n + (m.findings?.length ?? 0), 0)
  if (!count) return null
  return (
    <div data-testid="list-review" style={{ marginBottom: 8 }}>
      <Typography.Text strong>{t('currentMeds.reviewTitle', { count })}</Typography.Text>
      <Typography.Paragraph type="secondary" style={{ fontSize: 13, marginBottom: 4 }}>
        {t('currentMeds.reviewHint')}
      </Typography.Paragraph>
      {flagged.map((m, i) => (
        <LineFindings key={keyOf(m, i)} findings={m.findings ?? []} title={m.medicine} />
      ))}
    </div>
  )
}

/** With nothing current: "asked, takes no medicines" as answered (when, by whom), or a way to record it (M4). */
function TakesNoneLine({ patientId, canKeep }: { patientId: number; canKeep: boolean }) {
  const { t } = useTranslation()
  const none = useTakesNone(patientId)
  const record = useRecordTakesNone(patientId)
  if (none.data) return <Typography.Text data-testid="takes-none">{t('currentMeds.takesNoneAsked', { date: formatDay(none.data.asked_at), name: none.data.asked_by })}</Typography.Text>
  if (!canKeep || none.isLoading) return null
  return (
    <Button size="small" onClick={() => record.mutate()} loading={record.isPending}>
      {t('currentMeds.takesNoneButton')}
    </Button>
  )
}

/** Adds or corrects a recorded medicine; after a save, what the check read it as and what it says of it beside everything else the patient takes. */
function MedicineDialog({ patientId, m, onClose }: { patientId: number; m?: CurrentMedicine; onClose(): void }) {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const [form] = Form.useForm<CurrentMedicineInput>()
  const save = useSaveCurrentMedicine()
  const source = Form.useWatch('source', form)
  const picked = Form.useWatch('medicine_id', form)
  const typed = Form.useWatch('medicine', form)
  const submit = async (v: CurrentMedicineInput) => {
    try {
      const input = { ...v, medicine_id: v.medicine_id ?? null, started_on: readPartialDay(v.started_on ?? ''), prescriber: v.prescriber ?? '', version: m?.version ?? 0 }
      const saved = await save.mutateAsync({ patientId, id: m?.id, input })
      message.success(t('currentMeds.saved'))
      onClose()
      const unread = saved.read_as?.length === 0
      if (saved.findings?.length || unread) {
        modal.warning({
          title: t('currentMeds.checkTitle', { medicine: saved.medicine }),
          content: (
            <>
              {unread && <Alert type="error" showIcon title={t('currentMeds.notRecognisedHint')} style={{ marginBottom: 8 }} />}
              <LineFindings findings={saved.findings ?? []} />
            </>
          ),
          width: 560,
        })
      }
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  return (
    <Modal
      open
      title={m ? t('currentMeds.editTitle') : t('currentMeds.addTitle')}
      okText={t('currentMeds.save')}
      cancelText={t('currentMeds.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={save.isPending}
      destroyOnHidden
    >
      <Form<CurrentMedicineInput>
        form={form}
        name="currentMedicine"
        layout="vertical"
        onFinish={submit}
        initialValues={{ medicine_id: m?.medicine_id ?? null, medicine: m?.medicine ?? '', dose: m?.dose ?? '', frequency: m?.frequency ?? '', source: m?.source === 'otc' ? 'otc' : 'elsewhere', prescriber: m?.prescriber ?? '', started_on: m?.started_on ?? '' }}
      >
        <Form.Item name="medicine" label={t('currentMeds.medicine')} rules={[{ required: true, whitespace: true, message: t('currentMeds.medicineRequired') }]} extra={t('currentMeds.catalogueHint')}>
          <MedicineInput label={t('currentMeds.medicine')} picks={false} onPick={(p) => form.setFieldValue('medicine_id', p?.id ?? null)} />
        </Form.Item>
        <Form.Item name="medicine_id" hidden>
          <Input />
        </Form.Item>
        {!picked && typed?.trim() && <Alert type="warning" showIcon title={t('currentMeds.typedHint')} style={{ marginBottom: 16 }} />}
        <Form.Item name="source" label={t('currentMeds.sourceLabel')}>
          <Radio.Group
            options={[
              { value: 'elsewhere', label: t('currentMeds.source.elsewhere') },
              { value: 'otc', label: t('currentMeds.source.otc') },
            ]}
          />
        </Form.Item>
        {source === 'elsewhere' && (
          <Form.Item name="prescriber" label={t('currentMeds.prescriber')}>
            <Input maxLength={200} placeholder={t('currentMeds.prescriberHint')} />
          </Form.Item>
        )}
        <Flex gap={12} wrap>
          <Form.Item name="dose" label={t('currentMeds.dose')} style={{ flex: '1 1 140px' }}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="frequency" label={t('currentMeds.frequency')} style={{ flex: '1 1 140px' }}>
            <Input maxLength={200} />
          </Form.Item>
        </Flex>
        <Form.Item name="started_on" label={t('currentMeds.started')} extra={t('currentMeds.startedHint')}>
          <Input maxLength={10} />
        </Form.Item>
      </Form>
    </Modal>
  )
}

/** Stops a recorded medicine: from a day (today unless said) and why. */
function StopDialog({ m, onClose }: { m: CurrentMedicine; onClose(): void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<{ stopped_on: string; reason: string }>()
  const stop = useStopCurrentMedicine()
  const submit = async (v: { stopped_on: string; reason: string }) => {
    try {
      await stop.mutateAsync({ m, stopped_on: readPartialDay(v.stopped_on ?? ''), reason: v.reason })
      message.success(t('currentMeds.stopped', { medicine: m.medicine }))
      onClose()
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  return (
    <Modal
      open
      title={t('currentMeds.stopTitle', { medicine: m.medicine })}
      okText={t('currentMeds.stop')}
      okButtonProps={{ danger: true }}
      cancelText={t('currentMeds.cancel')}
      onOk={() => form.submit()}
      onCancel={onClose}
      confirmLoading={stop.isPending}
      destroyOnHidden
    >
      <Form form={form} name="stopMedicine" layout="vertical" onFinish={submit} initialValues={{ stopped_on: formatDay(today()), reason: '' }}>
        <Form.Item name="stopped_on" label={t('currentMeds.stoppedOn')}>
          <Input maxLength={10} />
        </Form.Item>
        <Form.Item name="reason" label={t('currentMeds.stopReason')} rules={[{ required: true, whitespace: true, message: t('currentMeds.reasonRequired') }]}>
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2 }} autoFocus />
        </Form.Item>
      </Form>
    </Modal>
  )
}

type Dialog = { kind: 'add' } | { kind: 'edit' | 'stop'; m: CurrentMedicine } | null

/** The dialogs of the list, and a way to open them. */
function useDialogs(patientId: number) {
  const [dialog, setDialog] = useState<Dialog>(null)
  const close = () => setDialog(null)
  const node =
    dialog?.kind === 'add' ? (
      <MedicineDialog patientId={patientId} onClose={close} />
    ) : dialog?.kind === 'edit' ? (
      <MedicineDialog patientId={patientId} m={dialog.m} onClose={close} />
    ) : dialog?.kind === 'stop' ? (
      <StopDialog m={dialog.m} onClose={close} />
    ) : null
  return { open: setDialog, node }
}

const keyOf = (m: CurrentMedicine, i: number) => (m.id ? `taken-${m.id}` : `rx-${m.prescription_id}-${i}`)

/** The stopped ones, folded away: when and why, and who heard it. */
function Stopped({ list }: { list: CurrentMedicine[] }) {
  const { t } = useTranslation()
  if (!list.length) return null
  return (
    <Collapse
      ghost
      size="small"
      items={[
        {
          key: 'stopped',
          label: t('currentMeds.stoppedList', { count: list.length }),
          children: (
            <List
              size="small"
              dataSource={list}
              renderItem={(m) => (
                <List.Item>
                  <span>
                    <s>{m.medicine}</s> — {t('currentMeds.stoppedOnBy', { date: formatDay(m.stopped_on), reason: m.stop_reason, name: m.stopped_by ?? '' })}
                  </span>
                </List.Item>
              )}
            />
          ),
        },
      ]}
    />
  )
}

/** The chart's card: every current medicine, with add, correct and stop for the nurse and the doctor. */
export function PatientMedicines({ patientId }: { patientId: number }) {
  const { t } = useTranslation()
  const canKeep = useCanKeep()
  const list = useCurrentMedicines(patientId)
  const dialogs = useDialogs(patientId)
  const active = (list.data ?? []).filter((m) => !m.stopped_on)
  return (
    <Card
      data-testid="current-medicines"
      title={t('currentMeds.title')}
      extra={
        canKeep && (
          <Button size="small" icon={<PlusOutlined aria-hidden />} onClick={() => dialogs.open({ kind: 'add' })}>
            {t('currentMeds.add')}
          </Button>
        )
      }
    >
      <ListReview active={active} />
      <List
        loading={list.isLoading}
        dataSource={active}
        locale={{ emptyText: <Typography.Text type="secondary">{t('currentMeds.none')}</Typography.Text> }}
        renderItem={(m, i) => (
          <List.Item key={keyOf(m, i)}>
            <Flex justify="space-between" align="flex-start" gap={8} wrap style={{ width: '100%' }}>
              <MedicineLine m={m} />
              {canKeep && (
                <Space size={4}>
                  {m.source !== 'here' && (
                    <Button size="small" icon={<EditOutlined aria-hidden />} aria-label={t('currentMeds.editNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'edit', m })}>
                      {t('currentMeds.edit')}
                    </Button>
                  )}
                  <Button size="small" danger icon={<StopOutlined aria-hidden />} aria-label={t('currentMeds.stopNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'stop', m })}>
                    {t('currentMeds.stop')}
                  </Button>
                </Space>
              )}
            </Flex>
          </List.Item>
        )}
      />
      {!list.isLoading && active.length === 0 && <TakesNoneLine patientId={patientId} canKeep={canKeep} />}
      <Stopped list={(list.data ?? []).filter((m) => m.stopped_on)} />
      {dialogs.node}
    </Card>
  )
}

/** A visit's reconciliation: for each medicine recorded as taken, "still taking?" — confirm it (one or all) or stop it; a line prescribed here can be said stopped. */
export function VisitMedicines({ patientId, appointmentId, closed }: { patientId: number; appointmentId: number; closed: boolean }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const canKeep = useCanKeep() && !closed
  const list = useCurrentMedicines(patientId)
  const confirm = useConfirmCurrentMedicine()
  const dialogs = useDialogs(patientId)
  const active = (list.data ?? []).filter((m) => !m.stopped_on)
  const asked = (m: CurrentMedicine) => m.confirmed_appointment_id === appointmentId
  // A high-alert medicine (anticoagulant, insulin, opioid…) is asked about on its own (m5).
  const open = active.filter((m) => m.source !== 'here' && !asked(m) && !highAlert(m))
  const confirmAll = async () => {
    // One by one: each answers its own version; a stale one says so and the rest go on.
    for (const m of open) await confirm.mutateAsync({ m, appointmentId }).catch(() => undefined)
    message.success(t('currentMeds.allConfirmed'))
  }
  return (
    // The question is the title, whole; the button to record one more sits below the list.
    <Card data-testid="still-taking" title={<span style={{ whiteSpace: 'normal' }}>{t('currentMeds.stillTaking')}</span>}>
      {canKeep && open.length > 1 && (
        <Button block icon={<CheckOutlined aria-hidden />} onClick={() => void confirmAll()} loading={confirm.isPending} style={{ marginBottom: 8 }}>
          {t('currentMeds.confirmAll', { count: open.length })}
        </Button>
      )}
      <ListReview active={active} />
      <List
        loading={list.isLoading}
        dataSource={active}
        locale={{ emptyText: <Typography.Text type="secondary">{t('currentMeds.none')}</Typography.Text> }}
        renderItem={(m, i) => (
          <List.Item key={keyOf(m, i)}>
            <Flex vertical gap={6} style={{ width: '100%' }}>
              <MedicineLine m={m} />
              {m.source === 'here' && canKeep && (
                <Space size={4} wrap>
                  <Button size="small" danger icon={<StopOutlined aria-hidden />} aria-label={t('currentMeds.stillTakingNoNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'stop', m })}>
                    {t('currentMeds.stillTakingNo')}
                  </Button>
                </Space>
              )}
              {m.source !== 'here' &&
                (asked(m) ? (
                  <span>
                    <Tag color="green" icon={<CheckOutlined aria-hidden />}>
                      {t('currentMeds.confirmedHere')}
                    </Tag>
                  </span>
                ) : (
                  canKeep && (
                    <Space size={4} wrap>
                      <Button size="small" type="primary" ghost icon={<CheckOutlined aria-hidden />} aria-label={t('currentMeds.stillTakingNamed', { medicine: m.medicine })} onClick={() => confirm.mutate({ m, appointmentId })}>
                        {t('currentMeds.stillTakingYes')}
                      </Button>
                      <Button size="small" danger icon={<StopOutlined aria-hidden />} aria-label={t('currentMeds.stillTakingNoNamed', { medicine: m.medicine })} onClick={() => dialogs.open({ kind: 'stop', m })}>
                        {t('currentMeds.stillTakingNo')}
                      </Button>
                    </Space>
                  )
                ))}
            </Flex>
          </List.Item>
        )}
      />
      {!list.isLoading && active.length === 0 && <TakesNoneLine patientId={patientId} canKeep={canKeep} />}
      {canKeep && (
        <Button type="dashed" block size="small" icon={<PlusOutlined aria-hidden />} onClick={() => dialogs.open({ kind: 'add' })} style={{ marginTop: 8 }}>
          {t('currentMeds.add')}
        </Button>
      )}
      {dialogs.node}
    </Card>
  )
}
