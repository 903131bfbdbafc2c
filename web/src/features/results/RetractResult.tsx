// Retracting a result entered in error (a wrong patient's sample, a haemolysed specimen, a
// value typed on the wrong order): one result, or the whole report, always with a category and
// a reason. Nothing is deleted: the result stays in the order's history, struck through, with
// that reason. Before retracting, the dialog says whether the value raised a critical alert,
// whether (and by whom) it was acknowledged, and to phone the doctor: the patient may have been
// told, or treated, on it. A wrong patient's sample is a result of another patient: the dialog
// says to record it on theirs.
import { Alert, App, Button, Checkbox, Form, Input, Modal, Radio, Space, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../lib/api'
import { formatDayTime } from '../../lib/time'
import { useRetract } from './api/retractResult'
import { RETRACT_CATEGORIES, type CriticalAlert, type LabOrder, type LabResult } from './api/types'

/** The shortest reason the server takes (MinRetractReason). */
const MIN_REASON = 5
// A reason in ideographs or syllables ("溶血", haemolysed) says as much in fewer characters (as the server counts).
const MIN_IDEOGRAPH_REASON = 2
const IDEOGRAPH = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
export const reasonLongEnough = (text: string) => {
  const v = text.trim()
  return [...v].length >= (IDEOGRAPH.test(v) ? MIN_IDEOGRAPH_REASON : MIN_REASON)
}

interface RetractValues {
  category?: string
  reason?: string
  same_draw?: number[]
}

/** Orders collected within this many minutes of each other are proposed as one draw. */
const DRAW_MINUTES = 15

/** The ids of `order`'s visit's other collected orders taken within DRAW_MINUTES of it: proposed as the same draw. */
export function proposedDraw(order: LabOrder): number[] {
  const at = order.collected_at ? new Date(order.collected_at).getTime() : NaN
  return (order.same_draw ?? [])
    .filter((o) => o.collected_at && Math.abs(new Date(o.collected_at).getTime() - at) <= DRAW_MINUTES * 60_000)
    .map((o) => o.id)
}

/** The button that asks why and retracts `result` of `order` (no result: every current one). */
export function RetractButton({ order, result }: { order: LabOrder; result?: LabResult }) {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  return (
    <>
      <Button
        danger
        size={result ? 'small' : undefined}
        type={result ? 'link' : 'default'}
        onClick={() => setOpen(true)}
        data-testid={result ? `retract-${result.analyte}` : 'retract-all'}
      >
        {result ? t('results.retract') : t('results.retractAll')}
      </Button>
      {open && <RetractDialog order={order} result={result} onClose={() => setOpen(false)} />}
    </>
  )
}

/** The alerts still standing that a retraction of `result` (none: of every result) withdraws. */
function standing(order: LabOrder, result?: LabResult): CriticalAlert[] {
  const analytes = result ? [result.analyte] : order.results.map((r) => r.analyte)
  return (order.alerts ?? []).filter((a) => !a.withdrawn_at && analytes.includes(a.result.analyte))
}

function RetractDialog({ order, result, onClose }: { order: LabOrder; result?: LabResult; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const retract = useRetract(order.id)
  const [form] = Form.useForm<RetractValues>()
  const category = Form.useWatch('category', form)
  // Another patient's sample: the whole report, whichever result the dialog was opened on.
  const whole = !result || category === 'wrong_patient'
  const alerts = standing(order, whole ? undefined : result)
  const draw = order.same_draw ?? []
  const submit = async () => {
    // A field left wrong says so beside it: nothing to send.
    const v = await form.validateFields().catch(() => null)
    if (!v) return
    const chosen = v.category === 'wrong_patient' ? draw.filter((o) => v.same_draw?.includes(o.id)) : []
    try {
      await retract.mutateAsync({
        version: order.version,
        result_id: whole ? undefined : result?.id,
        category: v.category!,
        reason: v.reason!.trim(),
        ...(chosen.length > 0 && { same_draw: chosen.map((o) => ({ id: o.id, version: o.version })) }),
      })
      void message.success(t('results.retracted'))
      onClose()
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fields).length > 0) {
        form.setFields(Object.entries(e.fields).map(([name, errors]) => ({ name: name as keyof RetractValues, errors })))
        return
      }
      void message.error((e as Error).message)
    }
  }
  return (
    <Modal
      open
      title={whole ? t('results.retractAllTitle') : t('results.retractTitle', { analyte: result.label || result.analyte })}
      okText={t('results.retractOk')}
      cancelText={t('results.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={retract.isPending}
      maskClosable={false}
      okButtonProps={{ danger: true }}
    >
      {alerts.length > 0 && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          data-testid="retract-alert"
          title={t('results.retractPhone')}
          description={
            <Space orientation="vertical" size={2}>
              {alerts.map((a) => (
                <span key={a.id}>
                  {t('results.retractAlert', { doctor: a.doctor_name, time: formatDayTime(a.raised_at) })}{' '}
                  {a.acknowledged_at
                    ? t('results.retractAlertAcknowledged', { name: a.acknowledged_by_name, time: formatDayTime(a.acknowledged_at), action: a.action })
                    : t('results.retractAlertOpen')}
                </span>
              ))}
            </Space>
          }
        />
      )}
      <Typography.Paragraph type="secondary">{t('results.retractHelp')}</Typography.Paragraph>
      <Form<RetractValues> form={form} layout="vertical" requiredMark initialValues={{ same_draw: proposedDraw(order) }}>
        <Form.Item name="category" label={t('results.retractCategory')} rules={[{ required: true, message: t('results.retractCategoryRequired') }]}>
          <Radio.Group>
            <Space orientation="vertical">
              {RETRACT_CATEGORIES.map((c) => (
                <Radio key={c} value={c}>
                  {t(`results.withdrawnCategories.${c}`)}
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        {category === 'wrong_patient' && (
          <Alert type="warning" showIcon style={{ marginBottom: 16 }} data-testid="retract-specimen" title={t('results.retractWholeSpecimen')} />
        )}
        {category === 'wrong_patient' && draw.length > 0 && (
          <Form.Item name="same_draw" label={t('results.retractSameDraw')} extra={t('results.retractSameDrawHelp')}>
            <Checkbox.Group>
              <Space orientation="vertical">
                {draw.map((o) => (
                  <Checkbox key={o.id} value={o.id}>
                    {o.test_label} · {t('results.retractCollected', { time: o.collected_at ? formatDayTime(o.collected_at) : '' })} ·{' '}
                    {o.results.map((r) => r.label || r.analyte).join(', ')}
                  </Checkbox>
                ))}
              </Space>
            </Checkbox.Group>
          </Form.Item>
        )}
        <Form.Item
          name="reason"
          label={t('results.retractReason')}
          required
          rules={[{ validator: (_, v?: string) => (reasonLongEnough(v ?? '') ? Promise.resolve() : Promise.reject(new Error(t('results.retractReasonShort')))) }]}
        >
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  )
}
