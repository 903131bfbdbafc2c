import { memo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { type Item } from '../api/types'
import styles from './PrescriptionEditor.module.css'
import { LineFindings, type Finding } from '../../../components/MedicineSafety'
import { StarButton } from '../../../components/StarButton'
import { Button } from '../../../light/Button'
import { Field, type ControlProps } from '../../../light/Field'
import { DeleteIcon } from '../../../light/icons'
import { Input, TextArea } from '../../../light/Input'
import { NumberNote } from '../../../light/NumberInput'
import { useLineField, useSelected, type EditorStore } from './editorStore'
import { CountInput, MedicineInput, RouteSelect } from './LineControls'
import { DoseByWeight, type LineDosing } from './DoseByWeight'

/** A line with no findings (one array for all, so that a line without any is not re-rendered for it). */
export const NO_FINDINGS: Finding[] = []

/** A line's fields that belong to its medicine: cleared when another medicine is chosen. */
const SAME_MEDICINE_ONLY = ['dose', 'frequency', 'quantity'] as const

interface LineProps {
  store: EditorStore
  /** The line's key in the editor's store and its place (from 0). */
  lineKey: number
  index: number
  removable: boolean
  onRemove(key: number): void
  findings: Finding[]
  /** Whether the line asks for the prescriber's reason (a finding needs one, or one is written). */
  askReason: boolean
  /** Each line's catalogue medicine before the prescriber began typing over it (by line key). */
  pickedBefore: Map<number, number>
  /** The dose table's rows for the line's medicine and the child's weight (none: not dosed by weight). */
  dosing?: LineDosing
}

/**
 * One line of the prescription editor. Memoised on what it shows: adding a line, or the editor
 * re-rendering for the safety check, leaves the other lines as they are; a key typed in a field
 * re-renders that field alone (each follows its own value in the store). onRemove reads the
 * store when called, so a newer one is the same.
 */
export const PrescriptionLine = memo(function PrescriptionLine({ store, lineKey, index, removable, onRemove, findings, askReason, pickedBefore, dosing }: LineProps) {
  const { t } = useTranslation()
  const item = () => store.get().lines.find((l) => l.key === lineKey)?.item
  const set = (part: Partial<Item>) => store.update(lineKey, part)
  const text = (name: 'dose' | 'frequency' | 'duration' | 'unit' | 'instructions', placeholder?: string) => (
    <LineField store={store} lineKey={lineKey} name={name} label={t(`rx.fields.${name}`)} className={name === 'instructions' ? styles.lastField : undefined}>
      {(value, c) => (
        <Input
          {...c}
          value={value ?? ''}
          placeholder={placeholder}
          // A dose typed by hand is no longer the dose by weight's: its numbers go, so a stale box is never sent.
          onChange={(e) => set(name === 'dose' && item()?.by_weight ? { dose: e.target.value, by_weight: undefined } : { [name]: e.target.value })}
        />
      )}
    </LineField>
  )
  return (
    <div data-testid="rx-line" className={styles.line}>
      <div className={styles.lineHead}>
        <strong>{t('rx.line', { n: index + 1 })}</strong>
        <Button variant="dangerText" size="small" icon={<DeleteIcon />} aria-label={t('rx.removeLine', { n: index + 1 })} onClick={() => onRemove(lineKey)} disabled={!removable} />
      </div>
      <LineField store={store} lineKey={lineKey} name="medicine" label={t('rx.fields.medicine')}>
        {(value, c) => (
          <MedicineInput
            {...c}
            value={value ?? ''}
            onChange={(v) => set({ medicine: v })}
            label={t('rx.fields.medicine')}
            onPick={(m) => {
              const before = item()?.medicine_id
              if (!m) {
                if (before) pickedBefore.set(lineKey, before)
                set({ medicine_id: null })
                return
              }
              // Another medicine's dose, frequency and quantity must not carry over to
              // this one (a twice-daily antibiotic's would be wrong for warfarin).
              const cleared = m.id !== (before ?? pickedBefore.get(lineKey)) ? Object.fromEntries(SAME_MEDICINE_ONLY.map((f) => [f, ''])) : {}
              pickedBefore.set(lineKey, m.id)
              set({ ...cleared, ...(m.id !== before ? { by_weight: undefined } : {}), medicine_id: m.id, unit: m.unit_label || m.unit })
            }}
          />
        )}
      </LineField>
      <Star store={store} lineKey={lineKey} />
      <LineFindings findings={findings} />
      {askReason && (
        <LineField store={store} lineKey={lineKey} name="override_reason" label={t('rx.safety.reason')}>
          {(value, c) => <TextArea {...c} rows={1} className={styles.grow} maxLength={500} placeholder={t('rx.safety.reasonPlaceholder')} value={value ?? ''} onChange={(e) => set({ override_reason: e.target.value })} />}
        </LineField>
      )}
      <div className={styles.fields}>
        {text('dose', t('rx.placeholders.dose'))}
        <LineField store={store} lineKey={lineKey} name="route" label={t('rx.fields.route')}>
          {(value, c) => <RouteSelect {...c} value={value ?? ''} onChange={(route) => set({ route: route as Item['route'] })} />}
        </LineField>
        {text('frequency', t('rx.placeholders.frequency'))}
        {text('duration', t('rx.placeholders.duration'))}
        <Quantity store={store} lineKey={lineKey} />
        {text('unit')}
        <LineField store={store} lineKey={lineKey} name="refills" label={t('rx.fields.refills')}>
          {(value, c) => <CountInput {...c} min={0} max={12} value={value ?? null} onChange={(refills) => set({ refills: refills as number })} />}
        </LineField>
      </div>
      {dosing && <DoseByWeight store={store} lineKey={lineKey} index={index} dosing={dosing} />}
      {text('instructions', t('rx.placeholders.instructions'))}
    </div>
  )
}, sameLine)

/** Whether a line shows the same: its callbacks aside (see PrescriptionLine). */
function sameLine(a: LineProps, b: LineProps) {
  return a.store === b.store && a.lineKey === b.lineKey && a.index === b.index && a.removable === b.removable && a.findings === b.findings && a.askReason === b.askReason && a.pickedBefore === b.pickedBefore && a.dosing === b.dosing
}

/** A field of a line, following its own value and message in the store. */
function LineField<K extends keyof Item>({ store, lineKey, name, label, help, className, children }: { store: EditorStore; lineKey: number; name: K; label: string; help?: ReactNode; className?: string; children(value: Item[K] | undefined, control: ControlProps): ReactNode }) {
  const { value, error } = useLineField(store, lineKey, name)
  return (
    <Field label={label} error={error} help={help} className={className ?? styles.field}>
      {(c) => children(value, c)}
    </Field>
  )
}

/** The quantity as typed in the user's language, with what it was read as said under it. */
function Quantity({ store, lineKey }: { store: EditorStore; lineKey: number }) {
  const { t } = useTranslation()
  const text = useSelected(store, (s) => s.lines.find((l) => l.key === lineKey)?.item.quantity)
  return (
    <LineField store={store} lineKey={lineKey} name="quantity" label={t('rx.fields.quantity')} help={<NumberNote text={text ?? undefined} />}>
      {(value, c) => <Input {...c} value={value ?? ''} inputMode="decimal" autoComplete="off" maxLength={12} onChange={(e) => store.update(lineKey, { quantity: e.target.value })} />}
    </LineField>
  )
}

/** The star of a line's catalogue medicine (none for one typed freely). */
function Star({ store, lineKey }: { store: EditorStore; lineKey: number }) {
  const id = useSelected(store, (s) => s.lines.find((l) => l.key === lineKey)?.item.medicine_id)
  const name = useSelected(store, (s) => s.lines.find((l) => l.key === lineKey)?.item.medicine)
  return id ? <StarButton kind="medicine" refId={String(id)} name={name ?? ''} /> : null
}
