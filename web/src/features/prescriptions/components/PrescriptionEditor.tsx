import { CopyOutlined, PlusOutlined } from '@ant-design/icons'
import { Alert, App, Button, Form, Input, Space } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import { AllergyLine } from '../../../components/PatientBanner'
import { usePrescriptionCheck } from '../../../lib/queries/prescriptionCheck'
import { previousPrescription } from '../api/previousPrescription'
import { useSavePrescription } from '../api/savePrescription'
import { emptyItem, type Draft, type Item, type Prescription } from '../api/types'
import styles from './PrescriptionEditor.module.css'
import { needsReason, type Finding } from '../../../components/MedicineSafety'
import { writeNumber } from '../../../lib/number'
import { NO_FINDINGS, PrescriptionLine } from './PrescriptionLine'

export { MedicineInput } from './PrescriptionLine'

interface Props {
  /** The prescription to change; absent for a new one. */
  rx?: Prescription
  /** A new one on this visit (absent on the blank form). */
  appointmentId?: number
  /** The blank form's chosen patient (null: a blank pad). */
  patientId?: number | null
  /** Lines to start a new one with (e.g. a replaced prescription's). */
  initialItems?: Item[]
  replacesId?: number
  onSaved(rx: Prescription): void
  onCancel?(): void
}

/** Writes a prescription's lines: a medicine (from the catalogue or free text), dose, route, frequency, duration, quantity, refills and instructions. */
export function PrescriptionEditor({ rx, appointmentId, patientId, initialItems, replacesId, onSaved, onCancel }: Props) {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<{ items: Item[]; notes: string }>()
  const save = useSavePrescription()
  const [error, setError] = useState<string>()
  // Each line's catalogue medicine before the prescriber began typing over it (by line key).
  const [pickedBefore] = useState(() => new Map<number, number>())
  // The server checks the lines against the patient's allergies and recent prescriptions as
  // they are written; each finding needs a reason on its line before the server saves it.
  // Only the medicines and whether a reason is written: typing a dose or a frequency re-renders
  // no more than its own field, never the whole editor.
  const watched = Form.useWatch((v: { items?: Item[] }) => v.items?.map((it) => ({ medicine_id: it?.medicine_id ?? null, medicine: it?.medicine ?? '', reason: !!it?.override_reason })), form)
  const owner = rx ? { prescriptionId: rx.id, patientId: rx.kind === 'blank' ? (patientId ?? null) : undefined } : { appointmentId, patientId: appointmentId ? undefined : (patientId ?? null) }
  const check = usePrescriptionCheck(owner, watched ?? rx?.items ?? initialItems ?? [])
  const findings = check.data?.findings ?? []
  const findingsOf = (line: number) => findings.filter((f) => f.line === line)
  const findingsByLine = useMemo(() => byLine(check.data?.findings ?? []), [check.data])

  const copyLast = async () => {
    if (!appointmentId) return
    try {
      const prev = await previousPrescription(appointmentId)
      form.setFieldValue('items', prev.items)
      message.success(t('rx.copied'))
    } catch (e) {
      message.info(e instanceof ApiError ? e.message : t('rx.noPrevious'))
    }
  }

  const submit = async (values: { items: Item[]; notes: string }) => {
    setError(undefined)
    const draft: Draft = {
      id: rx?.id,
      appointmentId,
      patient_id: rx?.kind === 'blank' || !appointmentId ? (patientId ?? null) : undefined,
      items: values.items.map((it, i) => ({
        ...it,
        quantity: it.quantity === null || it.quantity === undefined || it.quantity === '' ? null : String(it.quantity),
        override_reason: it.override_reason ?? '',
        overrides: it.override_reason?.trim() ? findingsOf(i).filter(needsReason).map((f) => f.key) : [],
      })),
      notes: values.notes ?? '',
      replaces_id: replacesId,
      version: rx?.version,
    }
    try {
      const saved = await save.mutateAsync(draft)
      message.success(t('rx.saved'))
      onSaved(saved)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      const fields = Object.entries(e.fields)
      form.setFields(
        fields
          .filter(([k]) => k.startsWith('items.'))
          .map(([k, msgs]) => {
            const [, i, name] = k.split('.')
            return { name: ['items', Number(i), name as keyof Item] as ['items', number, keyof Item], errors: msgs }
          }),
      )
      setError(fields.filter(([k]) => !k.startsWith('items.')).flatMap(([, m]) => m).join(' ') || (fields.length ? undefined : e.message))
    }
  }

  return (
    <Form form={form} layout="vertical" onFinish={submit} initialValues={{ items: typedAsWritten(rx?.items ?? initialItems ?? [emptyItem()], i18n.language), notes: rx?.notes ?? '' }} aria-label={t('rx.editor')}>
      {check.data?.patient_id && (
        <div className={styles.allergies}>
          <AllergyLine facts={check.data} />
        </div>
      )}
      <Form.List name="items">
        {(fields, { add, remove }) => (
          <Space orientation="vertical" style={{ width: '100%' }} size="small">
            {fields.map((field, index) => (
              <PrescriptionLine
                key={field.key}
                form={form}
                name={field.name}
                lineKey={field.key}
                index={index}
                removable={fields.length > 1}
                onRemove={remove}
                findings={findingsByLine.get(index) ?? NO_FINDINGS}
                askReason={(findingsByLine.get(index) ?? NO_FINDINGS).some(needsReason) || !!watched?.[index]?.reason}
                pickedBefore={pickedBefore}
              />
            ))}
            <Space wrap>
              <Button icon={<PlusOutlined aria-hidden />} onClick={() => add(emptyItem())}>
                {t('rx.addLine')}
              </Button>
              {appointmentId && !rx && (
                <Button icon={<CopyOutlined aria-hidden />} onClick={() => void copyLast()}>
                  {t('rx.copyLast')}
                </Button>
              )}
            </Space>
          </Space>
        )}
      </Form.List>
      <Form.Item name="notes" label={t('rx.fields.notes')} style={{ marginTop: 12 }}>
        <Input.TextArea autoSize={{ minRows: 1, maxRows: 4 }} />
      </Form.Item>
      {error && <Alert type="error" showIcon title={error} style={{ marginBottom: 12 }} />}
      <Space>
        <Button type="primary" htmlType="submit" loading={save.isPending}>
          {t('rx.save')}
        </Button>
        {onCancel && <Button onClick={onCancel}>{t('rx.close')}</Button>}
      </Space>
    </Form>
  )
}

/** Lines with their quantities as lang writes numbers (the record keeps 1.5; Russian types 1,5). */
function typedAsWritten(items: Item[], lang: string): Item[] {
  return items.map((it) => {
    const q = it.quantity === null || it.quantity === undefined || it.quantity === '' ? NaN : Number(it.quantity)
    return Number.isNaN(q) ? it : { ...it, quantity: writeNumber(q, lang) }
  })
}

/** The findings of each line, by its index. */
function byLine(findings: Finding[]): Map<number, Finding[]> {
  const lines = new Map<number, Finding[]>()
  for (const f of findings) lines.set(f.line, [...(lines.get(f.line) ?? []), f])
  return lines
}
