import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import { useCan } from '../../../lib/auth/can'
import { showFieldErrors } from '../../../lib/formErrors'
import { Button } from '../../../light/Button'
import { Combobox } from '../../../light/Combobox'
import { Confirm } from '../../../light/Confirm'
import { Field } from '../../../light/Field'
import { useForm } from '../../../light/form'
import { PlusIcon } from '../../../light/icons'
import { Input } from '../../../light/Input'
import { Switch } from '../../../light/Switch'
import { useToast } from '../../../light/Toast'
import { addLine } from '../api/chargeBill'
import { useServices } from '../api/listServices'
import type { Bill } from '../api/types'
import styles from './bill.module.css'
import { AmountField, keepQuantity, QuantityField, useRequired } from './fields'
import type { Money } from './useMoney'

interface ChargeForm {
  service_id?: number
  /** What is typed in the service's box: its search. */
  query: string
  description: string
  quantity: string
  price: string
}

const empty: ChargeForm = { query: '', description: '', quantity: '1', price: '' }

/** Adds a charge: a service of the price list at its price (another needs override price), or a free-text item. */
export function AddCharge({ bill, appointmentId, money, onDone }: { bill?: Bill | null; appointmentId?: number; money: Money; onDone: (b: Bill) => void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const required = useRequired()
  const [free, setFree] = useState(false)
  const [busy, setBusy] = useState(false)
  // The server's word that the service is on the bill already: asked before it is charged again.
  const [duplicate, setDuplicate] = useState<string>()
  const canOverride = useCan('override price')
  const { data } = useServices()
  const services = (data?.data ?? []).filter((s) => s.active)
  const form = useForm<ChargeForm>(empty, {
    description: (v) => (free ? required(v) : undefined),
    service_id: (v) => (free || v !== undefined ? undefined : t('validation.required')),
    quantity: (v) => required(v),
    price: (v) => (free && required(v)) || money.check(v, true),
  })
  const v = form.values
  const label = (s: (typeof services)[number]) => `${s.code} — ${s.name} (${money.format(s.price)})`
  // The library's search: the label holds the typed text, whatever its case.
  const found = services.filter((s) => label(s).toLowerCase().includes(v.query.trim().toLowerCase()))

  const save = async (confirmDuplicate = false) => {
    const price = v.price.trim() ? money.parse(v.price) : undefined
    const quantity = Number(keepQuantity(v.quantity))
    setBusy(true)
    try {
      const b = await addLine(
        { billId: bill?.id, appointmentId },
        free
          ? { description: v.description, quantity, unit_price: price ?? 0 }
          : { service_id: v.service_id, quantity, ...(price !== undefined && { unit_price: price }), ...(confirmDuplicate && { confirm_duplicate: true }) },
      )
      form.reset()
      toast.success(t('bill.charged'))
      onDone(b)
    } catch (e) {
      if (e instanceof ApiError && e.code === 'billing.duplicate_service') {
        // The server names the service already on the bill: charged again only on purpose.
        setDuplicate(e.message)
        return
      }
      showFieldErrors(e, form.fail, toast.error)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form
      noValidate
      data-testid="add-charge"
      onSubmit={(e) => {
        e.preventDefault()
        if (form.check()) void save()
      }}
    >
      <div data-form={form.scope} className={styles.chargeRow}>
        {free ? (
          <Field label={t('bill.item')} required error={form.errors.description} className={styles.wide}>
            {(c) => <Input {...c} maxLength={200} value={v.description} onChange={(e) => form.set('description', e.target.value)} />}
          </Field>
        ) : (
          <Field label={t('bill.service')} required error={form.errors.service_id} className={styles.wide}>
            {(c) => (
              <Combobox
                {...c}
                field
                activateFirst
                label={t('bill.service')}
                placeholder={t('bill.chooseService')}
                query={v.query}
                onQueryChange={(q) => form.update({ query: q, service_id: undefined })}
                options={found.map((s) => ({ value: String(s.id), label: label(s) }))}
                onChoose={(id) => {
                  const s = services.find((x) => String(x.id) === id)
                  if (!s) return
                  form.update({ service_id: s.id, query: label(s), ...(canOverride && { price: money.toMajor(s.price) }) })
                }}
              />
            )}
          </Field>
        )}
        <QuantityField label={t('bill.quantity')} value={v.quantity} onChange={(q) => form.set('quantity', q)} error={form.errors.quantity} className={styles.quantity} />
        {(free || canOverride) && (
          <AmountField money={money} label={t('bill.unitPriceIn', { currency: money.currency })} required={free} value={v.price} onChange={(p) => form.set('price', p)} error={form.errors.price} className={styles.price} />
        )}
        <div className={styles.addButton}>
          <Button type="submit" variant="primary" icon={<PlusIcon />} loading={busy}>
            {t('bill.addCharge')}
          </Button>
        </div>
      </div>
      <Switch
        checked={free}
        onChange={(on) => {
          setFree(on)
          form.reset()
        }}
      >
        {t('bill.freeText')}
      </Switch>
      <Confirm
        open={duplicate !== undefined}
        title={t('bill.alreadyCharged')}
        content={duplicate}
        okText={t('bill.chargeAgain')}
        cancelText={t('bill.cancel')}
        closeLabel={t('app.icons.close')}
        onCancel={() => setDuplicate(undefined)}
        onOk={async () => {
          await save(true)
          setDuplicate(undefined)
        }}
      />
    </form>
  )
}
