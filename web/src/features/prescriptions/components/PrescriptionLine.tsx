import { DeleteOutlined } from '@ant-design/icons'
import { AutoComplete, Button, Flex, Form, Input, InputNumber, Select, type FormInstance } from 'antd'
import { memo, useMemo, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { debounce } from '../../../lib/debounce'
import { searchMedicines } from '../api/searchMedicines'
import { ROUTES, type Item, type Medicine } from '../api/types'
import styles from './PrescriptionEditor.module.css'
import { LineFindings, type Finding } from '../../../components/MedicineSafety'
import { useClearable } from '../../../components/clearable'
import { StarButton } from '../../../components/StarButton'
import { favouritesFirst, usePicks } from '../../../lib/charting'
import { FieldNumberNote } from '../../../components/FieldNumberNote'

/** A line with no findings (one array for all, so that a line without any is not re-rendered for it). */
export const NO_FINDINGS: Finding[] = []

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

interface LineProps {
  form: FormInstance<{ items: Item[]; notes: string }>
  /** The line's name in the form's list, its key there and its place (from 0). */
  name: number
  lineKey: number
  index: number
  removable: boolean
  onRemove(name: number): void
  findings: Finding[]
  /** Whether the line asks for the prescriber's reason (a finding needs one, or one is written). */
  askReason: boolean
  /** Each line's catalogue medicine before the prescriber began typing over it (by line key). */
  pickedBefore: Map<number, number>
}

/**
 * One line of the prescription editor. Memoised on what it shows: adding a line, or the editor
 * re-rendering for the safety check, leaves the other lines as they are; a key typed in a field
 * re-renders that field alone. (onRemove reads the form's list when called, so a newer one is
 * the same.)
 */
export const PrescriptionLine = memo(function PrescriptionLine({ form, name, lineKey, index, removable, onRemove, findings, askReason, pickedBefore }: LineProps) {
  const clear = useClearable()
  const { t } = useTranslation()
  return (
    <div data-testid="rx-line" style={{ border: '1px solid var(--ant-color-border-secondary, #f0f0f0)', borderRadius: 8, padding: '8px 12px' }}>
      <Flex justify="space-between" align="center">
        <strong>{t('rx.line', { n: index + 1 })}</strong>
        <Button type="text" size="small" danger icon={<DeleteOutlined aria-hidden />} aria-label={t('rx.removeLine', { n: index + 1 })} onClick={() => onRemove(name)} disabled={!removable} />
      </Flex>
      <Form.Item name={[name, 'medicine']} label={t('rx.fields.medicine')} style={{ marginBottom: 8 }}>
        <MedicineInput
          label={t('rx.fields.medicine')}
          onPick={(m) => {
            const before = form.getFieldValue(['items', name, 'medicine_id']) as number | null | undefined
            if (!m) {
              if (before) pickedBefore.set(lineKey, before)
              form.setFieldValue(['items', name, 'medicine_id'], null)
              return
            }
            // Another medicine's dose, frequency and quantity must not carry over to
            // this one (a twice-daily antibiotic's would be wrong for warfarin).
            if (m.id !== (before ?? pickedBefore.get(lineKey))) {
              for (const field of SAME_MEDICINE_ONLY) form.setFieldValue(['items', name, field], '')
            }
            pickedBefore.set(lineKey, m.id)
            form.setFieldValue(['items', name, 'medicine_id'], m.id)
            form.setFieldValue(['items', name, 'unit'], m.unit_label || m.unit)
          }}
        />
      </Form.Item>
      <Form.Item name={[name, 'medicine_id']} hidden>
        <Input />
      </Form.Item>
      <Form.Item noStyle shouldUpdate={(prev: { items?: Item[] }, next: { items?: Item[] }) => prev.items?.[name]?.medicine_id !== next.items?.[name]?.medicine_id || prev.items?.[name]?.medicine !== next.items?.[name]?.medicine}>
        {() => {
          const id = form.getFieldValue(['items', name, 'medicine_id']) as number | null | undefined
          return id ? <StarButton kind="medicine" refId={String(id)} name={form.getFieldValue(['items', name, 'medicine']) as string} /> : null
        }}
      </Form.Item>
      <LineFindings findings={findings} />
      {askReason && (
        <Form.Item name={[name, 'override_reason']} label={t('rx.safety.reason')} style={{ marginBottom: 8 }}>
          <Input.TextArea autoSize={{ minRows: 1, maxRows: 3 }} maxLength={500} placeholder={t('rx.safety.reasonPlaceholder')} />
        </Form.Item>
      )}
      <div className={styles.fields}>
        <Form.Item name={[name, 'dose']} label={t('rx.fields.dose')} style={{ marginBottom: 8 }}>
          <Input placeholder={t('rx.placeholders.dose')} />
        </Form.Item>
        <Form.Item name={[name, 'route']} label={t('rx.fields.route')} style={{ marginBottom: 8 }}>
          <Select allowClear={clear.select} options={ROUTES.map((r) => ({ value: r, label: t(`rx.routes.${r}`) }))} />
        </Form.Item>
        <Form.Item name={[name, 'frequency']} label={t('rx.fields.frequency')} style={{ marginBottom: 8 }}>
          <Input placeholder={t('rx.placeholders.frequency')} />
        </Form.Item>
        <Form.Item name={[name, 'duration']} label={t('rx.fields.duration')} style={{ marginBottom: 8 }}>
          <Input placeholder={t('rx.placeholders.duration')} />
        </Form.Item>
        <Form.Item name={[name, 'quantity']} label={t('rx.fields.quantity')} style={{ marginBottom: 8 }} extra={<FieldNumberNote name={['items', name, 'quantity']} />}>
          <Input inputMode="decimal" autoComplete="off" maxLength={12} />
        </Form.Item>
        <Form.Item name={[name, 'unit']} label={t('rx.fields.unit')} style={{ marginBottom: 8 }}>
          <Input />
        </Form.Item>
        <Form.Item name={[name, 'refills']} label={t('rx.fields.refills')} style={{ marginBottom: 8 }}>
          <InputNumber min={0} max={12} precision={0} style={{ width: '100%' }} controls={false} />
        </Form.Item>
      </div>
      <Form.Item name={[name, 'instructions']} label={t('rx.fields.instructions')} style={{ marginBottom: 4 }}>
        <Input placeholder={t('rx.placeholders.instructions')} />
      </Form.Item>
    </div>
  )
}, sameLine)

/** Whether a line shows the same: its callbacks aside (see PrescriptionLine). */
function sameLine(a: LineProps, b: LineProps) {
  return a.form === b.form && a.name === b.name && a.lineKey === b.lineKey && a.index === b.index && a.removable === b.removable && a.findings === b.findings && a.askReason === b.askReason && a.pickedBefore === b.pickedBefore
}
