import dayjs from 'dayjs'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import { useCan } from '../../../lib/auth/can'
import { Alert } from '../../../light/Alert'
import { Checkbox } from '../../../light/Checkbox'
import { Field } from '../../../light/Field'
import fieldStyles from '../../../light/Field.module.css'
import { useForm } from '../../../light/form'
import { FormDialog } from '../../../light/FormDialog'
import { Input } from '../../../light/Input'
import { RadioGroup } from '../../../light/RadioGroup'
import { toast } from '../../../light/Toast'
import type { Schema } from '../../../lib/schema'
import { usePrescriptions } from '../../../lib/queries/prescriptions'
import type { SetContent } from '../api/orderSets'
import { useSaveSet } from '../api/saveOrderSet'
import styles from './OrderSetDialogs.module.css'

type VisitContent = Schema<'VisitContent'>

/** What of the visit the set keeps. */
const PARTS = ['diagnoses', 'orders', 'items', 'plan', 'follow_up'] as const
type Part = (typeof PARTS)[number]

/** A set made of a visit: its diagnoses, tests, the lines of its prescriptions (not cancelled), plan and follow-up interval. */
export function setOf(visit: VisitContent, day: string, lines: Schema<'PrescriptionItem'>[], parts: Part[]): SetContent {
  const has = (p: Part) => parts.includes(p)
  const days = visit.follow_up_date ? dayjs(visit.follow_up_date).diff(dayjs(day), 'day') : 0
  return {
    diagnoses: has('diagnoses') ? visit.diagnoses.filter((d) => d.code || d.text).map(({ code, text, primary }) => ({ code, text, primary })) : [],
    orders: has('orders') ? visit.orders.filter((o) => o.code).map(({ code, note }) => ({ code, note })) : [],
    items: has('items') ? lines.map((it) => ({ ...it, override_reason: '', overrides: [] })) : [],
    checks: [],
    plan: has('plan') ? visit.plan : '',
    follow_up_days: has('follow_up') && days > 0 ? days : 0,
  }
}

type Values = { name: string; scope: 'personal' | 'clinic'; parts: Part[] }

/** Saves the visit as an order set: the doctor's own, or (with the permission) the clinic's. */
export function SaveSetDialog({ appointmentId, day, content, onClose }: { appointmentId: number; day: string; content: () => VisitContent; onClose: () => void }) {
  const { t } = useTranslation()
  const rxs = usePrescriptions({ appointmentId })
  const save = useSaveSet()
  const canClinic = useCan('manage clinic sets')
  const [visit] = useState(content)
  const [problem, setProblem] = useState('')
  const partsId = useId()
  const lines = (rxs.data ?? []).filter((rx) => rx.status !== 'cancelled').flatMap((rx) => rx.items)
  const counts: Record<Part, number> = {
    diagnoses: visit.diagnoses.filter((d) => d.code || d.text).length,
    orders: visit.orders.filter((o) => o.code).length,
    items: lines.length,
    plan: visit.plan.trim() ? 1 : 0,
    follow_up: visit.follow_up_date ? 1 : 0,
  }
  // The parts ticked as it opens: those the visit has (as the library's form's initial values).
  const form = useForm<Values>({ name: '', scope: 'personal', parts: PARTS.filter((p) => counts[p] > 0) }, { name: (v) => (v.trim() ? undefined : t('orderSets.nameRequired')) })
  const v = form.values
  // The visit's prescriptions may arrive after the dialog opened: their lines are ticked then, as
  // they would have been had they come first, unless the doctor has ticked or unticked a part.
  const [partsTouched, setPartsTouched] = useState(false)
  const items = lines.length > 0
  const [itemsSeen, setItemsSeen] = useState(items)
  if (items && !itemsSeen) {
    setItemsSeen(true)
    if (!partsTouched && !v.parts.includes('items')) form.set('parts', PARTS.filter((x) => x === 'items' || v.parts.includes(x)))
  }
  const submit = async () => {
    setProblem('')
    try {
      await save.mutateAsync({ input: { name: v.name, scope: v.scope, language: '', content: setOf(visit, day, lines, v.parts), version: 0 } })
      toast.success(t('orderSets.saved', { name: v.name }))
      onClose()
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      form.fail(Object.fromEntries(Object.entries(e.fields).filter(([f]) => f === 'name').map(([f, msgs]) => [f, msgs.join(' ')])))
      setProblem(e.display)
    }
  }
  return (
    <FormDialog
      title={t('orderSets.saveTitle')}
      okText={t('orderSets.saveButton')}
      cancelText={t('appointments.cancelButton')}
      busy={save.isPending}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      // The library's dialog saved by its OK only: Enter in the name saves nothing unseen.
      enterSubmits={false}
    >
      <Field label={t('orderSets.name')} required error={form.errors.name}>
        {(c) => <Input {...c} maxLength={120} value={v.name} onChange={(e) => form.set('name', e.target.value)} />}
      </Field>
      <RadioGroup
        legend={t('orderSets.scope')}
        value={v.scope}
        onChange={(scope) => form.set('scope', scope)}
        options={[
          { value: 'personal', label: t('orderSets.personal') },
          { value: 'clinic', label: t('orderSets.clinicWide'), disabled: !canClinic },
        ]}
      />
      <div role="group" aria-labelledby={partsId} className={fieldStyles.field}>
        <div id={partsId} className={fieldStyles.label}>
          {t('orderSets.keep')}
        </div>
        <div className={styles.parts}>
          {PARTS.map((p) => (
            <Checkbox key={p} disabled={counts[p] === 0} checked={v.parts.includes(p)} onChange={(on) => {
                setPartsTouched(true)
                form.set('parts', on ? PARTS.filter((x) => x === p || v.parts.includes(x)) : v.parts.filter((x) => x !== p))
              }}>
              {t(`orderSets.parts.${p}`, { count: counts[p] })}
            </Checkbox>
          ))}
        </div>
      </div>
      {problem && <Alert type="error" role="alert" title={problem} />}
    </FormDialog>
  )
}
