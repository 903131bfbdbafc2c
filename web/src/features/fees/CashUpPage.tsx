import { PrinterOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import { App, Button, Card, Descriptions, Empty, Flex, Form, Input, Modal, Skeleton, Space, Tag, Typography } from 'antd'
import dayjs, { type Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { focusFirstField } from '../../components/focusFirstField'
import { useCan } from '../../lib/auth/can'
import { showFormErrors } from '../../lib/formErrors'
import { formatDayTime } from '../../lib/time'
import { closeDrawer, setFloat, type Drawer } from './api/drawers'
import { useFeeSettings } from './api/feeSettings'
import { reportsKey, useCashUp } from './api/reports'
import { useMoney, type Money } from './bill/useMoney'
import { DayTakings } from './DayTakings'
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
  const queryClient = useQueryClient()
  const done = () => (setDialog(undefined), void queryClient.invalidateQueries({ queryKey: reportsKey }))
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

/** One drawer's shift: what it should hold and, once closed, what was counted. */
export function DrawerFigures({ drawer: d, money }: { drawer: Drawer; money: Money }) {
  const { t } = useTranslation()
  const items = [
    { key: 'float', label: t('cashUp.float'), children: money.format(d.opening_float) },
    { key: 'in', label: t('cashUp.cashReceived'), children: money.format(d.cash_received) },
    // No refund line on a drawer that gave none back: "−0" reads as a refund of nothing.
    ...(d.cash_refunded ? [{ key: 'out', label: t('cashUp.cashRefunded'), children: `−${money.format(d.cash_refunded)}` }] : []),
    { key: 'drawer', label: <strong>{t('cashUp.drawerCash')}</strong>, children: <strong data-testid="drawer-cash">{money.format(d.drawer_cash)}</strong> },
    ...(d.counted != null
      ? [
          { key: 'counted', label: t('cashUp.counted'), children: money.format(d.counted) },
          { key: 'difference', label: t('cashUp.difference'), children: <Difference value={d.difference ?? 0} money={money} /> },
        ]
      : []),
    ...d.other.map((m) => ({ key: m.method, label: t('cashUp.otherMethod', { method: t(`bill.methods.${m.method}`) }), children: money.format(m.net) })),
  ]
  return <Descriptions size="small" bordered column={1} items={items} />
}

/** A difference in words as well as sign: short, over, or exact. */
export function Difference({ value, money }: { value: number; money: Money }) {
  const { t } = useTranslation()
  if (value === 0) return <span data-testid="drawer-difference">{t('cashUp.exact')}</span>
  return <strong data-testid="drawer-difference">{value < 0 ? t('cashUp.short', { amount: money.format(-value) }) : t('cashUp.over', { amount: money.format(value) })}</strong>
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
        <Button icon={<PrinterOutlined aria-hidden />} onClick={() => navigate(`/fees/drawers/${d.shift_id}/print`)} aria-label={t('cashUp.printOf', { cashier: d.cashier })}>
          {t('cashUp.print')}
        </Button>
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

function CloseModal({ drawer, money, onClose, onDone }: { drawer: Drawer; money: Money; onClose: () => void; onDone: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<{ counted: string; note?: string }>()
  const counted = money.parse(Form.useWatch('counted', form) ?? '')
  const save = async (v: { counted: string; note?: string }) => {
    try {
      await closeDrawer(drawer, money.parse(v.counted) ?? 0, v.note ?? '')
      onDone()
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  return (
    <Modal open title={t('cashUp.closeOf', { cashier: drawer.cashier })} okText={t('cashUp.close')} cancelText={t('bill.cancel')} onCancel={onClose} onOk={() => form.submit()} afterOpenChange={focusFirstField} destroyOnHidden>
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
        <Typography.Paragraph>{t('cashUp.shouldHold', { amount: money.format(drawer.drawer_cash) })}</Typography.Paragraph>
        <Form.Item name="counted" label={t('cashUp.countedIn', { currency: money.currency })} rules={[{ required: true, whitespace: true, message: t('validation.required') }, money.rule(true)]}>
          <Input inputMode="decimal" maxLength={18} />
        </Form.Item>
        <div aria-live="polite" style={{ marginBottom: 12 }}>
          {counted !== undefined && (
            <>
              {t('cashUp.difference')}: <Difference value={counted - drawer.drawer_cash} money={money} />
            </>
          )}
        </div>
        {/* A count short or over is explained when it is counted (the server refuses it without). */}
        <Form.Item
          name="note"
          label={t('cashUp.note')}
          extra={t('cashUp.noteHint')}
          rules={counted !== undefined && counted !== drawer.drawer_cash ? [{ required: true, whitespace: true, message: t('cashUp.noteNeeded') }] : []}
        >
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
        <button type="submit" hidden aria-hidden tabIndex={-1} />
      </Form>
    </Modal>
  )
}
