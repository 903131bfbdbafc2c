import { PlusOutlined } from '@ant-design/icons'
import { App, Button, Flex, Form, Input, InputNumber, Select, Switch } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import { useCan } from '../../../lib/auth/can'
import { showFormErrors } from '../../../lib/formErrors'
import { addLine } from '../api/chargeBill'
import { useServices } from '../api/listServices'
import type { Bill } from '../api/types'
import type { Money } from './useMoney'
import { FieldNumberNote } from '../../../components/NumberInput'

interface ChargeForm {
  service_id?: number
  description?: string
  quantity: number
  price?: string
}

/** Adds a charge: a service of the price list at its price (another needs override price), or a free-text item. */
export function AddCharge({ bill, appointmentId, money, onDone }: { bill?: Bill | null; appointmentId?: number; money: Money; onDone: (b: Bill) => void }) {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const [form] = Form.useForm<ChargeForm>()
  const [free, setFree] = useState(false)
  const [busy, setBusy] = useState(false)
  const canOverride = useCan('override price')
  const { data } = useServices()
  const services = (data?.data ?? []).filter((s) => s.active)

  const save = async (v: ChargeForm, confirmDuplicate = false) => {
    const price = v.price?.trim() ? money.parse(v.price) : undefined
    setBusy(true)
    try {
      const b = await addLine(
        { billId: bill?.id, appointmentId },
        free
          ? { description: v.description ?? '', quantity: v.quantity, unit_price: price ?? 0 }
          : { service_id: v.service_id, quantity: v.quantity, ...(price !== undefined && { unit_price: price }), ...(confirmDuplicate && { confirm_duplicate: true }) },
      )
      form.resetFields()
      message.success(t('bill.charged'))
      onDone(b)
    } catch (e) {
      if (e instanceof ApiError && e.code === 'billing.duplicate_service') {
        // The server names the service already on the bill: charged again only on purpose.
        modal.confirm({ title: t('bill.alreadyCharged'), content: e.message, okText: t('bill.chargeAgain'), cancelText: t('bill.cancel'), onOk: () => save(v, true) })
        return
      }
      showFormErrors(form, message, e)
    } finally {
      setBusy(false)
    }
  }

  return (
    <Form form={form} layout="vertical" initialValues={{ quantity: 1 }} onFinish={(v) => void save(v)} data-testid="add-charge">
      <Flex gap={8} wrap align="end">
        {free ? (
          <Form.Item name="description" label={t('bill.item')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]} style={{ flex: '2 1 220px', marginBottom: 8 }}>
            <Input maxLength={200} />
          </Form.Item>
        ) : (
          <Form.Item name="service_id" label={t('bill.service')} rules={[{ required: true, message: t('validation.required') }]} style={{ flex: '2 1 220px', marginBottom: 8 }}>
            <Select
              showSearch={{ optionFilterProp: 'label' }}
              placeholder={t('bill.chooseService')}
              options={services.map((s) => ({ value: s.id, label: `${s.code} — ${s.name} (${money.format(s.price)})` }))}
              onChange={(id: number) => canOverride && form.setFieldValue('price', money.toMajor(services.find((s) => s.id === id)?.price ?? 0))}
            />
          </Form.Item>
        )}
        <Form.Item name="quantity" label={t('bill.quantity')} rules={[{ required: true, message: t('validation.required') }]} style={{ flex: '0 0 90px', marginBottom: 8 }}>
          <InputNumber min={1} max={999} precision={0} style={{ width: '100%' }} />
        </Form.Item>
        {(free || canOverride) && (
          <Form.Item name="price" label={t('bill.unitPriceIn', { currency: money.currency })} rules={[...(free ? [{ required: true, whitespace: true, message: t('validation.required') }] : []), money.rule(true)]} style={{ flex: '1 1 120px', marginBottom: 8 }} extra={<FieldNumberNote name="price" amountUnits={money.units} unit={money.currency} />}>
            <Input inputMode="decimal" maxLength={18} />
          </Form.Item>
        )}
        <Form.Item style={{ marginBottom: 8 }}>
          <Button htmlType="submit" type="primary" icon={<PlusOutlined aria-hidden />} loading={busy}>
            {t('bill.addCharge')}
          </Button>
        </Form.Item>
      </Flex>
      <Flex gap={8} align="center">
        <Switch
          size="small"
          checked={free}
          onChange={(on) => {
            setFree(on)
            form.resetFields()
          }}
          aria-label={t('bill.freeText')}
          id="bill-free-text"
        />
        <label htmlFor="bill-free-text">{t('bill.freeText')}</label>
      </Flex>
    </Form>
  )
}
