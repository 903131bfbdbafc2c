import { CopyOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons'
import { Alert, App, AutoComplete, Button, Flex, Form, Input, InputNumber, Select, Space } from 'antd'
import { useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import { debounce } from '../../../lib/debounce'
import { AllergyLine } from '../../../components/PatientBanner'
import { usePrescriptionCheck } from '../../../lib/queries/prescriptionCheck'
import { previousPrescription } from '../api/previousPrescription'
import { useSavePrescription } from '../api/savePrescription'
import { searchMedicines } from '../api/searchMedicines'
import { emptyItem, ROUTES, type Draft, type Item, type Medicine, type Prescription } from '../api/types'
import styles from './PrescriptionEditor.module.css'
import { LineFindings, needsReason } from '../../../components/MedicineSafety'
import { useClearable } from '../../../components/clearable'
import { StarButton } from '../../../components/StarButton'
import { favouritesFirst, usePicks } from '../../../lib/charting'
import { FieldNumberNote } from '../../../components/NumberInput'
import { writeNumber } from '../../../lib/number'

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

/** A line's fields that belong to its medicine: cleared when another medicine is chosen. */
const SAME_MEDICINE_ONLY = ['dose', 'frequency', 'quantity'] as const

/**
 * The medicine of a line: typed freely, or picked from the catalogue (then onPick gets the
 * entry; typing over it, null). picks: offer the prescriber's favourites and most used (not
 * for whoever does not prescribe).
 */
export function MedicineInput({ value, onChange, onPick, label, picks: offerPicks = true }: { value?: string; onChange?(v: string): void; onPick(m: Medicine | null): void; label: string; picks?: boolean }) {
  const [found, setOptions] = useState<Medicine[]>([])
  const picks = usePicks(offerPicks)
  const picked = useRef<string | undefined>(undefined)
  const search = useMemo(() => debounce((q: string) => void searchMedicines(q).then(setOptions, () => setOptions([])), 250), [])
  // Nothing typed yet: the prescriber's favourites and most used; a search: its results with those first.
  const mine = (picks.data?.medicines ?? []).flatMap((p) => (p.medicine ? [p.medicine] : []))
  const options = (value ?? '').trim() === '' ? mine : favouritesFirst(found, picks.data?.medicines, (m) => String(m.id))
  const starred = new Set((picks.data?.medicines ?? []).filter((p) => p.favourite).map((p) => p.ref))
  return (
    <AutoComplete
      value={value}
      aria-label={label}
      options={options.map((m) => ({ value: m.label, key: m.id, medicine: m, label: starred.has(String(m.id)) ? `★ ${m.label}` : m.label }))}
      onSearch={(q) => (q.trim() ? search(q) : setOptions([]))}
      onChange={(v: string) => {
        onChange?.(v)
        if (picked.current !== undefined && v !== picked.current) {
          picked.current = undefined
          onPick(null)
        }
      }}
      onSelect={(_, o) => {
        const m = (o as unknown as { medicine: Medicine }).medicine
        picked.current = m.label
        onPick(m)
      }}
    />
  )
}

/** Writes a prescription's lines: a medicine (from the catalogue or free text), dose, route, frequency, duration, quantity, refills and instructions. */
export function PrescriptionEditor({ rx, appointmentId, patientId, initialItems, replacesId, onSaved, onCancel }: Props) {
  const clear = useClearable()
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<{ items: Item[]; notes: string }>()
  const save = useSavePrescription()
  const [error, setError] = useState<string>()
  // Each line's catalogue medicine before the prescriber began typing over it (by line key).
  const pickedBefore = useRef(new Map<number, number>())
  // The server checks the lines against the patient's allergies and recent prescriptions as
  // they are written; each finding needs a reason on its line before the server saves it.
  const watched = Form.useWatch('items', form) as Item[] | undefined
  const owner = rx ? { prescriptionId: rx.id, patientId: rx.kind === 'blank' ? (patientId ?? null) : undefined } : { appointmentId, patientId: appointmentId ? undefined : (patientId ?? null) }
  const check = usePrescriptionCheck(owner, watched ?? rx?.items ?? initialItems ?? [])
  const findings = check.data?.findings ?? []
  const findingsOf = (line: number) => findings.filter((f) => f.line === line)

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
              <div key={field.key} data-testid="rx-line" style={{ border: '1px solid var(--ant-color-border-secondary, #f0f0f0)', borderRadius: 8, padding: '8px 12px' }}>
                <Flex justify="space-between" align="center">
                  <strong>{t('rx.line', { n: index + 1 })}</strong>
                  <Button type="text" size="small" danger icon={<DeleteOutlined aria-hidden />} aria-label={t('rx.removeLine', { n: index + 1 })} onClick={() => remove(field.name)} disabled={fields.length === 1} />
                </Flex>
                <Form.Item name={[field.name, 'medicine']} label={t('rx.fields.medicine')} style={{ marginBottom: 8 }}>
                  <MedicineInput
                    label={t('rx.fields.medicine')}
                    onPick={(m) => {
                      const before = form.getFieldValue(['items', field.name, 'medicine_id']) as number | null | undefined
                      if (!m) {
                        if (before) pickedBefore.current.set(field.key, before)
                        form.setFieldValue(['items', field.name, 'medicine_id'], null)
                        return
                      }
                      // Another medicine's dose, frequency and quantity must not carry over to
                      // this one (a twice-daily antibiotic's would be wrong for warfarin).
                      if (m.id !== (before ?? pickedBefore.current.get(field.key))) {
                        for (const name of SAME_MEDICINE_ONLY) form.setFieldValue(['items', field.name, name], '')
                      }
                      pickedBefore.current.set(field.key, m.id)
                      form.setFieldValue(['items', field.name, 'medicine_id'], m.id)
                      form.setFieldValue(['items', field.name, 'unit'], m.unit_label || m.unit)
                    }}
                  />
                </Form.Item>
                <Form.Item name={[field.name, 'medicine_id']} hidden>
                  <Input />
                </Form.Item>
                <Form.Item noStyle shouldUpdate>
                  {() => {
                    const id = form.getFieldValue(['items', field.name, 'medicine_id']) as number | null | undefined
                    return id ? <StarButton kind="medicine" refId={String(id)} name={form.getFieldValue(['items', field.name, 'medicine']) as string} /> : null
                  }}
                </Form.Item>
                <LineFindings findings={findingsOf(index)} />
                {(findingsOf(index).some(needsReason) || !!watched?.[index]?.override_reason) && (
                  <Form.Item name={[field.name, 'override_reason']} label={t('rx.safety.reason')} style={{ marginBottom: 8 }}>
                    <Input.TextArea autoSize={{ minRows: 1, maxRows: 3 }} maxLength={500} placeholder={t('rx.safety.reasonPlaceholder')} />
                  </Form.Item>
                )}
                <div className={styles.fields}>
                  <Form.Item name={[field.name, 'dose']} label={t('rx.fields.dose')} style={{ marginBottom: 8 }}>
                    <Input placeholder={t('rx.placeholders.dose')} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'route']} label={t('rx.fields.route')} style={{ marginBottom: 8 }}>
                    <Select allowClear={clear.select} options={ROUTES.map((r) => ({ value: r, label: t(`rx.routes.${r}`) }))} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'frequency']} label={t('rx.fields.frequency')} style={{ marginBottom: 8 }}>
                    <Input placeholder={t('rx.placeholders.frequency')} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'duration']} label={t('rx.fields.duration')} style={{ marginBottom: 8 }}>
                    <Input placeholder={t('rx.placeholders.duration')} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'quantity']} label={t('rx.fields.quantity')} style={{ marginBottom: 8 }} extra={<FieldNumberNote name={['items', field.name, 'quantity']} />}>
                    <Input inputMode="decimal" autoComplete="off" maxLength={12} />
                  </Form.Item>
                  <Form.Item name={[field.name, 'unit']} label={t('rx.fields.unit')} style={{ marginBottom: 8 }}>
                    <Input />
                  </Form.Item>
                  <Form.Item name={[field.name, 'refills']} label={t('rx.fields.refills')} style={{ marginBottom: 8 }}>
                    <InputNumber min={0} max={12} precision={0} style={{ width: '100%' }} controls={false} />
                  </Form.Item>
                </div>
                <Form.Item name={[field.name, 'instructions']} label={t('rx.fields.instructions')} style={{ marginBottom: 4 }}>
                  <Input placeholder={t('rx.placeholders.instructions')} />
                </Form.Item>
              </div>
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
