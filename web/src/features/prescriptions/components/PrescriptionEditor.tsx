import { useCallback, useMemo, useState } from 'react'
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
import { Alert } from '../../../light/Alert'
import { Button } from '../../../light/Button'
import { Field } from '../../../light/Field'
import { CopyIcon, PlusIcon } from '../../../light/icons'
import { TextArea } from '../../../light/Input'
import { useToast } from '../../../light/Toast'
import { NO_FINDINGS, PrescriptionLine } from './PrescriptionLine'
import { createEditorStore, sameList, useSelected, type EditorStore } from './editorStore'

export { MedicineInput } from './LineControls'

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
  const toast = useToast()
  const [store] = useState(() => createEditorStore(typedAsWritten(rx?.items ?? initialItems ?? [emptyItem()], i18n.language), rx?.notes ?? ''))
  const save = useSavePrescription()
  const [error, setError] = useState<string>()
  // Each line's catalogue medicine before the prescriber began typing over it (by line key).
  const [pickedBefore] = useState(() => new Map<number, number>())
  const keys = useSelected(store, (s) => s.lines.map((l) => l.key), sameList)
  // The server checks the lines against the patient's allergies and recent prescriptions as
  // they are written; each finding needs a reason on its line before the server saves it.
  // The medicines, whether a reason is written, and the dose and frequency as they print (a
  // child's dose is checked against the dose table as it is typed; the check waits for the
  // typing to pause, usePrescriptionCheck).
  const watched = useSelected(
    store,
    (s) => s.lines.map((l) => ({ medicine_id: l.item.medicine_id ?? null, medicine: l.item.medicine ?? '', reason: !!l.item.override_reason, by_weight: l.item.by_weight, dose: l.item.dose ?? '', frequency: l.item.frequency ?? '' })),
    sameWatched,
  )
  const owner = rx ? { prescriptionId: rx.id, patientId: rx.kind === 'blank' ? (patientId ?? null) : undefined } : { appointmentId, patientId: appointmentId ? undefined : (patientId ?? null) }
  const check = usePrescriptionCheck(owner, watched)
  const findings = check.data?.findings ?? []
  const findingsOf = (line: number) => findings.filter((f) => f.line === line)
  const findingsByLine = useMemo(() => byLine(check.data?.findings ?? []), [check.data])
  // Each line's rows of the dose table by weight, with the child's latest weight (issue 59).
  const dosingByLine = useMemo(() => new Map((check.data?.patient_id ? (check.data.doses ?? []) : []).map((d) => [d.line, { doses: d, weight: check.data?.weight ?? null }])), [check.data])
  const add = () => store.set({ ...store.get(), lines: [...store.get().lines, store.line(emptyItem())] })
  const remove = useCallback((key: number) => store.set({ ...store.get(), lines: store.get().lines.filter((l) => l.key !== key) }), [store])

  const copyLast = async () => {
    if (!appointmentId) return
    try {
      const prev = await previousPrescription(appointmentId)
      store.set({ ...store.get(), lines: prev.items.map(store.line) })
      toast.success(t('rx.copied'))
    } catch (e) {
      toast.show('info', e instanceof ApiError ? e.message : t('rx.noPrevious'))
    }
  }

  const submit = async () => {
    setError(undefined)
    const values = store.get()
    const draft: Draft = {
      id: rx?.id,
      appointmentId,
      patient_id: rx?.kind === 'blank' || !appointmentId ? (patientId ?? null) : undefined,
      items: values.lines.map(({ item: it }, i) => ({
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
      toast.success(t('rx.saved'))
      onSaved(saved)
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      const fields = Object.entries(e.fields)
      // The server names a line's field as items.<n>.<name>: its message goes under that field.
      const lines = store.get().lines.map((l, i) => {
        const mine = fields.filter(([k]) => k.startsWith(`items.${i}.`)).map(([k, msgs]) => [k.split('.')[2], msgs.join(' ')])
        return mine.length ? { ...l, errors: { ...l.errors, ...Object.fromEntries(mine) } } : l
      })
      store.set({ ...store.get(), lines })
      setError(fields.filter(([k]) => !k.startsWith('items.')).flatMap(([, m]) => m).join(' ') || (fields.length ? undefined : e.message))
    }
  }

  return (
    <form
      aria-label={t('rx.editor')}
      noValidate
      onSubmit={(e) => {
        e.preventDefault()
        if (!save.isPending) void submit()
      }}
    >
      {check.data?.patient_id && (
        <div className={styles.allergies}>
          <AllergyLine facts={check.data} />
        </div>
      )}
      <div className={styles.lines}>
        {keys.map((key, index) => (
          <PrescriptionLine
            key={key}
            store={store}
            lineKey={key}
            index={index}
            removable={keys.length > 1}
            onRemove={remove}
            findings={findingsByLine.get(index) ?? NO_FINDINGS}
            askReason={(findingsByLine.get(index) ?? NO_FINDINGS).some(needsReason) || !!watched[index]?.reason}
            pickedBefore={pickedBefore}
            dosing={dosingByLine.get(index)}
          />
        ))}
        <div className={styles.row}>
          <Button icon={<PlusIcon />} onClick={add}>
            {t('rx.addLine')}
          </Button>
          {appointmentId && !rx && (
            <Button icon={<CopyIcon />} onClick={() => void copyLast()}>
              {t('rx.copyLast')}
            </Button>
          )}
        </div>
      </div>
      <Notes store={store} />
      {error && (
        <div className={styles.error}>
          <Alert type="error" role="alert" title={error} />
        </div>
      )}
      <div className={styles.row}>
        <Button type="submit" variant="primary" loading={save.isPending}>
          {t('rx.save')}
        </Button>
        {onCancel && <Button onClick={onCancel}>{t('rx.close')}</Button>}
      </div>
    </form>
  )
}

/** The prescription's notes, following their own value. */
function Notes({ store }: { store: EditorStore }) {
  const { t } = useTranslation()
  const notes = useSelected(store, (s) => s.notes)
  return (
    <Field label={t('rx.fields.notes')} className={styles.notes}>
      {(c) => <TextArea {...c} rows={1} className={styles.growNotes} value={notes} onChange={(e) => store.set({ ...store.get(), notes: e.target.value })} />}
    </Field>
  )
}

type Watched = { medicine_id: number | null; medicine: string; reason: boolean; by_weight?: Item['by_weight']; dose: string; frequency: string }

/** Whether the check's inputs are the same (and no line's reason came or went; a dose by weight is the same object until it changes). */
const sameWatched = (a: Watched[], b: Watched[]) =>
  a.length === b.length && a.every((x, i) => x.medicine_id === b[i].medicine_id && x.medicine === b[i].medicine && x.reason === b[i].reason && x.by_weight === b[i].by_weight && x.dose === b[i].dose && x.frequency === b[i].frequency)

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
