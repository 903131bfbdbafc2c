import { Alert, App, Checkbox, Form, Input, Modal, Space } from 'antd'
import dayjs from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import type { Schema } from '../../../lib/schema'
import { usePrescriptions } from '../../../lib/queries/prescriptions'
import type { SetContent } from '../api/orderSets'
import { useSaveSet } from '../api/saveOrderSet'
import { ScopeField } from './fields'

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

/** Saves the visit as an order set: the doctor's own, or (with the permission) the clinic's. */
export function SaveSetDialog({ appointmentId, day, content, onClose }: { appointmentId: number; day: string; content: () => VisitContent; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const rxs = usePrescriptions({ appointmentId })
  const save = useSaveSet()
  const [visit] = useState(content)
  const [form] = Form.useForm<{ name: string; scope: 'personal' | 'clinic'; parts: Part[] }>()
  const [problem, setProblem] = useState('')
  const lines = (rxs.data ?? []).filter((rx) => rx.status !== 'cancelled').flatMap((rx) => rx.items)
  const counts: Record<Part, number> = {
    diagnoses: visit.diagnoses.filter((d) => d.code || d.text).length,
    orders: visit.orders.filter((o) => o.code).length,
    items: lines.length,
    plan: visit.plan.trim() ? 1 : 0,
    follow_up: visit.follow_up_date ? 1 : 0,
  }
  const submit = async () => {
    const v = await form.validateFields()
    setProblem('')
    try {
      await save.mutateAsync({ input: { name: v.name, scope: v.scope, language: '', content: setOf(visit, day, lines, v.parts), version: 0 } })
      void message.success(t('orderSets.saved', { name: v.name }))
      onClose()
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      form.setFields(Object.entries(e.fields).filter(([f]) => f === 'name').map(([name, errors]) => ({ name: name as 'name', errors })))
      setProblem(e.display)
    }
  }
  return (
    <Modal open title={t('orderSets.saveTitle')} okText={t('orderSets.saveButton')} cancelText={t('appointments.cancelButton')} onOk={() => void submit()} onCancel={onClose} confirmLoading={save.isPending} destroyOnHidden>
      <Form form={form} layout="vertical" initialValues={{ name: '', scope: 'personal', parts: PARTS.filter((p) => counts[p] > 0) }}>
        <Form.Item name="name" label={t('orderSets.name')} rules={[{ required: true, whitespace: true, message: t('orderSets.nameRequired') }]}>
          <Input maxLength={120} autoFocus />
        </Form.Item>
        <ScopeField />
        <Form.Item name="parts" label={t('orderSets.keep')}>
          <Checkbox.Group>
            <Space orientation="vertical">
              {PARTS.map((p) => (
                <Checkbox key={p} value={p} disabled={counts[p] === 0}>
                  {t(`orderSets.parts.${p}`, { count: counts[p] })}
                </Checkbox>
              ))}
            </Space>
          </Checkbox.Group>
        </Form.Item>
      </Form>
      {problem && <Alert type="error" showIcon role="alert" title={problem} />}
    </Modal>
  )
}
