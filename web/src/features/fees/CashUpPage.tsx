import { PrinterOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Checkbox, Descriptions, Empty, Flex, Form, Input, Modal, Skeleton, Space, Tag, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { focusFirstField } from '../../components/focusFirstField'
import { useCan } from '../../lib/auth/can'
import { showFormErrors } from '../../lib/formErrors'
import { formatDayTime } from '../../lib/time'
import { ApiError } from '../../lib/api'
import { closeDrawer } from './api/closeDrawer'
import { countDrawer } from './api/countDrawer'
import type { Drawer } from './api/drawers'
import { setFloat } from './api/setFloat'
import { useFeeSettings } from './api/feeSettings'
import { useCashUp } from './api/getCashUp'
import { useRefreshReports } from './api/reports'
import { useMoney, type Money } from './bill/useMoney'
import { DayTakings } from './DayTakings'
import { Difference } from './Difference'
import { DateInput } from '../../components/DateInput'

const DAY = 'YYYY-MM-DD'

/**
 * /fees/cash-up — the drawers to count: each cashier's shift with its float, the cash taken
 * and given back, the cash it should hold, the count and the difference; other methods
 * apart. A cashier sees her own drawer; who reads the financial reports sees every drawer
 * and the day's takings by method and cashier.
 */
export default function CashUpPage() {
  const { t } = useTranslation()
  const [day, setDay] = useState(dayjs().format(DAY))
  const { data, isLoading } = useCashUp(day)
  const { data: settings } = useFeeSettings()
  const money = useMoney(settings?.currency ?? 'USD', settings?.minor_units ?? 2)
  // As the server's route: who takes payments, or counts her own drawer, may set her float.
  const takes = useCan('record payment')
  const countsOwn = useCan('cash up own drawer')
  const canTake = takes || countsOwn
  const [dialog, setDialog] = useState<'float' | Drawer>()
  const refresh = useRefreshReports()
  const done = () => (setDialog(undefined), refresh())
  return (
    <Card title={t('cashUp.title')}>
      <Flex gap={8} wrap align="center" style={{ marginBottom: 16 }}>
        <DateInput value={dayjs(day)} allowClear={false} onChange={(d: Dayjs | null) => d && setDay(d.format(DAY))} aria-label={t('reports.day')} />
        {canTake && <Button onClick={() => setDialog('float')}>{t('cashUp.setFloat')}</Button>}
      </Flex>
      {isLoading && <Skeleton active />}
      {data && data.drawers.length === 0 && <Empty description={t('cashUp.noDrawers')} />}
      <Flex vertical gap={16}>
        {data?.drawers.map((d) => <DrawerCard key={d.shift_id} drawer={d} money={money} onClose={() => setDialog(d)} />)}
      </Flex>
      {data && !data.mine && <DayTakings data={data} money={money} day={day} />}
      {dialog === 'float' && <FloatModal money={money} onClose={() => setDialog(undefined)} onDone={done} />}
      {typeof dialog === 'object' && <CloseModal drawer={dialog} money={money} onClose={() => setDialog(undefined)} onDone={done} />}
    </Card>
  )
}

/**
 * One drawer's shift: what it should hold and, once closed, what was counted. Blind — the server
 * withholds the cash figures (null) of a drawer whose cashier has not counted it yet, from her
 * alone (Drawer.Blind, M7) — they stay hidden: the screen follows the server's judgement.
 */
export function DrawerFigures({ drawer: d, money }: { drawer: Drawer; money: Money }) {
  const { t } = useTranslation()
  if (d.drawer_cash == null)
    return (
      <Descriptions
        size="small"
        bordered
        column={1}
        items={[
          { key: 'float', label: t('cashUp.float'), children: money.format(d.opening_float) },
          { key: 'blind', label: t('cashUp.drawerCash'), children: <Typography.Text type="secondary">{t('cashUp.blind')}</Typography.Text> },
        ]}
      />
    )
  const items = [
    { key: 'float', label: t('cashUp.float'), children: money.format(d.opening_float) },
    { key: 'in', label: t('cashUp.cashReceived'), children: money.format(d.cash_received ?? 0) },
    // No refund line on a drawer that gave none back: "−0" reads as a refund of nothing.
    ...(d.cash_refunded ? [{ key: 'out', label: t('cashUp.cashRefunded'), children: `−${money.format(d.cash_refunded)}` }] : []),
    { key: 'drawer', label: <strong>{t('cashUp.drawerCash')}</strong>, children: <strong data-testid="drawer-cash">{money.format(d.drawer_cash)}</strong> },
    ...(d.count_expected != null && d.count_expected !== d.drawer_cash ? [{ key: 'countExpected', label: t('cashUp.countExpected'), children: money.format(d.count_expected) }] : []),
    ...(d.counted != null
      ? [
          { key: 'counted', label: t('cashUp.counted'), children: money.format(d.counted) },
          { key: 'difference', label: t('cashUp.difference'), children: <Difference value={d.difference ?? 0} money={money} /> },
        ]
      : []),
    ...(d.counted != null && d.first_count != null && d.first_count !== d.counted ? [{ key: 'first', label: t('cashUp.firstCount'), children: money.format(d.first_count) }] : []),
    ...(d.count_note ? [{ key: 'countNote', label: t('cashUp.cashierNote'), children: d.count_note }] : []),
    ...(d.acknowledged_by ? [{ key: 'ack', label: t('cashUp.acknowledgedBy'), children: d.acknowledged_by }] : []),
    ...d.other.map((m) => ({ key: m.method, label: t('cashUp.otherMethod', { method: t(`bill.methods.${m.method}`) }), children: money.format(m.net) })),
  ]
  return <Descriptions size="small" bordered column={1} items={items} />
}

function DrawerCard({ drawer: d, money, onClose }: { drawer: Drawer; money: Money; onClose: () => void }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <Card
      size="small"
      data-testid="drawer"
      title={
        <Space wrap>
          {d.cashier}
          <Typography.Text type="secondary">{t('cashUp.openedAt', { when: formatDayTime(d.opened_at) })}</Typography.Text>
        </Space>
      }
      extra={d.closed_at ? <Tag color="green">{t('cashUp.closed')}</Tag> : <Tag color="blue">{t('cashUp.open')}</Tag>}
    >
      <DrawerFigures drawer={d} money={money} />
      {d.closed_at && (
        <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
          {t('cashUp.closedBy', { when: formatDayTime(d.closed_at), by: d.closed_by })}
          {d.note && ` · ${d.note}`}
        </Typography.Paragraph>
      )}
      <Flex gap={8} wrap style={{ marginTop: 12 }}>
        {!d.closed_at && (
          <Button type="primary" onClick={onClose}>
            {t('cashUp.close')}
          </Button>
        )}
        {/* A blind drawer prints once counted: the sheet carries what it should hold. */}
        {d.drawer_cash != null && (
          <Button icon={<PrinterOutlined aria-hidden />} onClick={() => navigate(`/fees/drawers/${d.shift_id}/print`)} aria-label={t('cashUp.printOf', { cashier: d.cashier })}>
            {t('cashUp.print')}
          </Button>
        )}
      </Flex>
    </Card>
  )
}

/** Sets the caller's float; once cash has moved the server refuses, and says why on the field. */
export function FloatModal({ money, onClose, onDone }: { money: Money; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  // The field is named as the server names it, so its refusal shows under it.
  const [form] = Form.useForm<{ opening_float: string }>()
  const save = async (v: { opening_float: string }) => {
    try {
      await setFloat(money.parse(v.opening_float) ?? 0)
      onDone()
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  return (
    <Modal open title={t('cashUp.setFloat')} okText={t('bill.save')} cancelText={t('bill.cancel')} onCancel={onClose} onOk={() => form.submit()} afterOpenChange={focusFirstField} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
        <Form.Item name="opening_float" label={t('bill.amountIn', { currency: money.currency })} extra={t('cashUp.floatHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }, money.rule(true)]}>
          <Input inputMode="decimal" maxLength={18} />
        </Form.Item>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  )
}

/**
 * Closes a drawer counted blind (the cashier's review, M7): the count is asked first, with no
 * word of what the drawer should hold, and recorded (the first count stands); only then are the
 * expected amount and the difference shown, a difference asks for a note, and one over the
 * clinic's limit needs a supervisor (who may void bills) to acknowledge it before the close is
 * final. The server refuses the close without that acknowledgement too.
 */
export function CloseModal({ drawer, money, onClose, onDone }: { drawer: Drawer; money: Money; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { data: settings } = useFeeSettings()
  const supervisor = useCan('void bill')
  const refresh = useRefreshReports()
  const [form] = Form.useForm<{ counted: string; countNote?: string; note?: string; acknowledge?: boolean }>()
  // The drawer as the count answered it (with what it should hold), and the count typed.
  const [seen, setSeen] = useState<{ drawer: Drawer; counted: number }>()
  // The server asked for a supervisor though the limit was not known here (or changed).
  const [askedBy, setAskedBy] = useState<string>()
  const [busy, setBusy] = useState(false)
  const stale = (e: unknown) => {
    if (e instanceof ApiError && e.status === 409) {
      void message.warning(t('cashUp.changed'))
      refresh()
      onClose()
      return true
    }
    return false
  }
  const count = async (v: { counted: string; countNote?: string }) => {
    const counted = money.parse(v.counted) ?? 0
    setBusy(true)
    try {
      setSeen({ drawer: await countDrawer(drawer, counted, v.countNote?.trim() ?? ''), counted })
    } catch (e) {
      if (!stale(e)) showFormErrors(form, message, e)
    } finally {
      setBusy(false)
    }
  }
  const limit = settings?.drawer_difference_limit
  // The close is judged on the first count against what the drawer held when counted (the
  // server's rule): a count typed now that differs from the first needs a supervisor too.
  const expected = seen ? (seen.drawer.count_expected ?? seen.drawer.drawer_cash ?? 0) : 0
  const firstCount = seen ? (seen.drawer.first_count ?? seen.counted) : 0
  const difference = seen ? seen.counted - expected : 0
  const firstDifference = firstCount - expected
  const recounted = seen != null && firstCount !== seen.counted
  const overLimit =
    seen != null && (recounted || (firstDifference !== 0 && ((limit != null && Math.abs(firstDifference) > limit) || askedBy != null)))
  const noteNeeded = recounted || ((difference !== 0 || firstDifference !== 0) && !seen?.drawer.count_note)
  const blocked = overLimit && !supervisor
  const close = async (v: { note?: string; acknowledge?: boolean }) => {
    if (!seen || blocked) return
    setBusy(true)
    try {
      await closeDrawer(seen.drawer, seen.counted, v.note ?? '', supervisor && !!v.acknowledge)
      onDone()
    } catch (e) {
      if (stale(e)) return
      if (e instanceof ApiError && e.fields.acknowledge) setAskedBy(e.fields.acknowledge[0])
      showFormErrors(form, message, e)
    } finally {
      setBusy(false)
    }
  }
  const first = seen?.drawer.first_count
  return (
    <Modal
      open
      title={t('cashUp.closeOf', { cashier: drawer.cashier })}
      okText={seen ? t('cashUp.close') : t('cashUp.recordCount')}
      okButtonProps={{ disabled: blocked }}
      confirmLoading={busy}
      cancelText={t('bill.cancel')}
      // A count recorded changed the drawer (its first count, its version): the page reads it again.
      onCancel={() => (seen && refresh(), onClose())}
      onOk={() => form.submit()}
      afterOpenChange={focusFirstField}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={(v) => void (seen ? close(v) : count(v as { counted: string }))}>
        {!seen ? (
          <>
            <Typography.Paragraph>{t('cashUp.countFirst')}</Typography.Paragraph>
            <Form.Item name="counted" label={t('cashUp.countedIn', { currency: money.currency })} rules={[{ required: true, whitespace: true, message: t('validation.required') }, money.rule(true)]}>
              <Input inputMode="decimal" maxLength={18} />
            </Form.Item>
            <Form.Item name="countNote" label={t('cashUp.countNote')} extra={t('cashUp.countNoteHint')}>
              <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
            </Form.Item>
          </>
        ) : (
          <>
            <Descriptions
              size="small"
              bordered
              column={1}
              style={{ marginBottom: 12 }}
              items={[
                { key: 'counted', label: t('cashUp.yourCount'), children: <span data-testid="close-counted">{money.format(seen.counted)}</span> },
                ...(first != null && first !== seen.counted ? [{ key: 'first', label: t('cashUp.firstCount'), children: money.format(first) }] : []),
                { key: 'expected', label: t('cashUp.drawerCash'), children: <span data-testid="close-expected">{money.format(expected)}</span> },
                { key: 'difference', label: t('cashUp.difference'), children: <Difference value={difference} money={money} /> },
              ]}
            />
            {/* A count short or over is explained when it is closed (the server refuses it without);
                a cashier who cannot close it leaves that to the supervisor who does. */}
            {!blocked && (
              <Form.Item name="note" label={t('cashUp.note')} extra={t('cashUp.noteHint')} rules={noteNeeded ? [{ required: true, whitespace: true, message: t('cashUp.noteNeeded') }] : []}>
                <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
              </Form.Item>
            )}
            {overLimit && blocked && (
              <Alert type="warning" showIcon role="alert" title={askedBy ?? (recounted ? t('cashUp.recountNeedsSupervisor') : t('cashUp.needsSupervisor', { limit: money.format(limit ?? 0) }))} />
            )}
            {overLimit && !blocked && (
              <>
                <Alert type="warning" showIcon style={{ marginBottom: 8 }} title={askedBy ?? t('cashUp.overLimit', { limit: money.format(limit ?? 0) })} />
                <Form.Item name="acknowledge" valuePropName="checked" rules={[{ validator: async (_, v) => { if (!v) throw new Error(t('cashUp.acknowledgeNeeded')) } }]}>
                  <Checkbox>{t('cashUp.acknowledge')}</Checkbox>
                </Form.Item>
              </>
            )}
          </>
        )}
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  )
}
