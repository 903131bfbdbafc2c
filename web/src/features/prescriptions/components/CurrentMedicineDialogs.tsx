// The current medicines' dialogs: record or correct a medicine (and what the safety check then
// says of it), stop one, mark one entered in error, keep two knowingly. Each is a light dialog
// whose fields are one form: checked on OK (the first field with a message takes focus), the
// server's refusal shown under the field it names.
import { useTranslation } from 'react-i18next'
import { LineFindings, useFindingText, type Finding } from '../../../components/MedicineSafety'
import { ApiError } from '../../../lib/api'
import { useCan } from '../../../lib/auth/can'
import { showFieldErrors } from '../../../lib/formErrors'
import { formatDay } from '../../../lib/time'
import { Alert } from '../../../light/Alert'
import { Button } from '../../../light/Button'
import { DateInput } from '../../../light/DateInput'
import { Dialog } from '../../../light/Dialog'
import { Field } from '../../../light/Field'
import { useForm } from '../../../light/form'
import { FormDialog as LightFormDialog, type FormDialogProps } from '../../../light/FormDialog'
import { Input, Select, TextArea } from '../../../light/Input'
import { RadioGroup } from '../../../light/RadioGroup'
import { useToast } from '../../../light/Toast'
import { ADHERENCES, INFO_SOURCES, type CurrentMedicine } from '../api/currentMedicines'
import { useKeepPair } from '../api/keepPair'
import { useMarkInError } from '../api/markInError'
import { useSaveCurrentMedicine, type CurrentMedicineInput } from '../api/saveCurrentMedicine'
import { STOP_CATEGORIES, useStopCurrentMedicine, type StopCategory } from '../api/stopCurrentMedicine'
import { ROUTES } from '../api/types'
import { keepReasonLongEnough, lastDoseOf, partialDay, readPartialDay, TIME, today } from './currentMedicineDays'
import styles from './CurrentMedicines.module.css'
import { MedicineInput } from './LineControls'

/**
 * A dialog of the list: its form's fields, Cancel and OK at its foot (light/FormDialog). Only OK
 * sends it: the library's dialogs of these forms of several fields had OK outside the form, so
 * Enter in a field never saved a medicine half recorded.
 */
function FormDialog<T extends object>(props: Omit<FormDialogProps<T>, 'cancelText' | 'enterSubmits'>) {
  const { t } = useTranslation()
  return <LightFormDialog {...props} cancelText={t('currentMeds.cancel')} enterSubmits={false} />
}

/** Keeps a finding of the list's review knowingly: why both medicines stay, in the doctor's words. */
export function KeepDialog({ patientId, m, f, onClose }: { patientId: number; m: CurrentMedicine; f: Finding; onClose(): void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const text = useFindingText()
  const form = useForm({ reason: '' }, { reason: (v) => (keepReasonLongEnough(v) ? undefined : t('currentMeds.keepReasonShort')) })
  const keep = useKeepPair(patientId)
  const submit = async () => {
    if (!f.pair) return
    try {
      await keep.mutateAsync({ ...f.pair, reason: form.values.reason.trim() })
      toast.success(t('currentMeds.keptSaved'))
      onClose()
    } catch (e) {
      showFieldErrors(e, form.fail, toast.error)
    }
  }
  return (
    <FormDialog title={t('currentMeds.keepTitle', { medicine: m.medicine, other: f.other_medicine ?? '' })} okText={t('currentMeds.keepOk')} busy={keep.isPending} form={form} onSubmit={submit} onClose={onClose}>
      <p className={styles.paragraph}>{text(f)}</p>
      <p className={`${styles.paragraph} ${styles.small} ${styles.muted}`}>{t('currentMeds.keepHint')}</p>
      <Field label={t('currentMeds.keepReason')} error={form.errors.reason}>
        {(c) => <TextArea {...c} rows={3} maxLength={500} placeholder={t('currentMeds.keepReasonPlaceholder')} value={form.values.reason} onChange={(e) => form.set('reason', e.target.value)} />}
      </Field>
    </FormDialog>
  )
}

/** The dialog's values: the last dose as a day (ISO, '' for none) and an optional time. */
type MedicineForm = Omit<CurrentMedicineInput, 'version' | 'last_dose'> & { last_dose_day: string; last_dose_time: string }

/** Adds or corrects a recorded medicine; after a save, onSaved shows what the check read it as and says of it. */
export function MedicineDialog({ patientId, m, onClose, onSaved }: { patientId: number; m?: CurrentMedicine; onClose(): void; onSaved(saved: CurrentMedicine): void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const save = useSaveCurrentMedicine()
  const [day, time] = (m?.last_dose ?? '').split('T')
  const form = useForm<MedicineForm>(
    {
      medicine_id: m?.medicine_id ?? null,
      medicine: m?.medicine ?? '',
      dose: m?.dose ?? '',
      frequency: m?.frequency ?? '',
      source: m?.source === 'otc' ? 'otc' : 'elsewhere',
      prescriber: m?.prescriber ?? '',
      // Shown as the user writes it (03.2019, not 2019-03), read back by readPartialDay.
      started_on: m?.started_on ? partialDay(m.started_on) : '',
      route: m?.route ?? '',
      indication: m?.indication ?? '',
      adherence: m?.adherence ?? '',
      information_source: m?.information_source ?? '',
      last_dose_day: day ?? '',
      last_dose_time: time ?? '',
    },
    {
      medicine: (v) => (v?.trim() ? undefined : t('currentMeds.medicineRequired')),
      last_dose_time: (v) => (!v || TIME.test(v) ? undefined : t('currentMeds.timeFormat')),
    },
  )
  const v = form.values
  const submit = async () => {
    const { last_dose_day, last_dose_time, ...rest } = form.values
    try {
      const input: CurrentMedicineInput = { ...rest, medicine_id: rest.medicine_id ?? null, started_on: readPartialDay(rest.started_on ?? ''), last_dose: lastDoseOf(last_dose_day, last_dose_time), version: m?.version ?? 0 }
      const saved = await save.mutateAsync({ patientId, id: m?.id, input })
      toast.success(t('currentMeds.saved'))
      onClose()
      onSaved(saved)
    } catch (e) {
      // the server names the last dose as one field: shown under its day
      if (e instanceof ApiError && e.fields.last_dose) e.fields.last_dose_day = e.fields.last_dose
      showFieldErrors(e, (found) => form.fail(Object.fromEntries(Object.entries(found).filter(([k]) => k !== 'last_dose'))), toast.error)
    }
  }
  const text = (name: 'prescriber' | 'dose' | 'frequency' | 'indication', maxLength: number, placeholder?: string, className?: string) => (
    <Field label={t(`currentMeds.${name}`)} error={form.errors[name]} className={className}>
      {(c) => <Input {...c} maxLength={maxLength} placeholder={placeholder} value={v[name] ?? ''} onChange={(e) => form.set(name, e.target.value)} />}
    </Field>
  )
  return (
    <FormDialog title={m ? t('currentMeds.editTitle') : t('currentMeds.addTitle')} okText={t('currentMeds.save')} busy={save.isPending} form={form} onSubmit={submit} onClose={onClose}>
      <Field label={t('currentMeds.medicine')} required help={t('currentMeds.catalogueHint')} error={form.errors.medicine}>
        {(c) => <MedicineInput {...c} label={t('currentMeds.medicine')} picks={false} value={v.medicine} onChange={(medicine) => form.set('medicine', medicine)} onPick={(p) => form.set('medicine_id', p?.id ?? null)} />}
      </Field>
      {!v.medicine_id && v.medicine.trim() && (
        <div className={styles.notice}>
          <Alert type="warning" title={t('currentMeds.typedHint')} />
        </div>
      )}
      <RadioGroup
        legend={t('currentMeds.sourceLabel')}
        value={v.source}
        onChange={(source) => form.set('source', source)}
        options={[
          { value: 'elsewhere' as const, label: t('currentMeds.source.elsewhere') },
          { value: 'otc' as const, label: t('currentMeds.source.otc') },
        ]}
      />
      {v.source === 'elsewhere' && text('prescriber', 200, t('currentMeds.prescriberHint'))}
      <div className={styles.fieldRow}>
        {text('dose', 200, undefined, styles.wide)}
        {text('frequency', 200, undefined, styles.wide)}
      </div>
      <Field label={t('currentMeds.started')} help={t('currentMeds.startedHint')} error={form.errors.started_on}>
        {(c) => <Input {...c} maxLength={10} value={v.started_on ?? ''} onChange={(e) => form.set('started_on', e.target.value)} />}
      </Field>
      {/* An h3 under the dialog's h2, drawn as the h5 was. */}
      <h3 className={styles.reconcileTitle}>{t('currentMeds.reconcileTitle')}</h3>
      <div className={styles.fieldRow}>
        <Field label={t('currentMeds.route')} error={form.errors.route} className={styles.wider}>
          {(c) => <Select {...c} value={v.route ?? ''} onChange={(route) => form.set('route', route)} options={[{ value: '' as const, label: '' }, ...ROUTES.map((r) => ({ value: r, label: t(`rx.routes.${r}`, { defaultValue: r }) }))]} />}
        </Field>
        {text('indication', 200, t('currentMeds.indicationHint'), styles.wider)}
      </div>
      <div className={styles.fieldRow}>
        <Field label={t('currentMeds.lastDose')} error={form.errors.last_dose_day} className={styles.wider}>
          {(c) => <DateInput {...c} className={styles.fullWidth} clearable max={today()} value={v.last_dose_day} onChange={(d) => form.set('last_dose_day', d)} />}
        </Field>
        <Field label={t('currentMeds.lastDoseTime')} error={form.errors.last_dose_time} className={styles.narrow}>
          {(c) => <Input {...c} maxLength={5} placeholder="08:00" value={v.last_dose_time} onChange={(e) => form.set('last_dose_time', e.target.value)} />}
        </Field>
      </div>
      <RadioGroup<NonNullable<MedicineForm['adherence']>> legend={t('currentMeds.adherenceLabel')} value={v.adherence ?? ''} onChange={(adherence) => form.set('adherence', adherence)} options={ADHERENCES.map((a) => ({ value: a, label: t(`currentMeds.adherence.${a}`) }))} />
      <Field label={t('currentMeds.infoSourceLabel')} error={form.errors.information_source}>
        {(c) => <Select {...c} value={v.information_source ?? ''} onChange={(s) => form.set('information_source', s)} options={[{ value: '' as const, label: '' }, ...INFO_SOURCES.map((a) => ({ value: a, label: t(`currentMeds.infoSource.${a}`) }))]} />}
      </Field>
    </FormDialog>
  )
}

/**
 * What the safety check says of a medicine just recorded (and that it could not read it, in red):
 * told, not asked. An alert dialog described by its findings, focus on its OK, so that a screen
 * reader says the warning as it opens (as the library's warning did).
 */
export function CheckedDialog({ saved, onClose }: { saved: CurrentMedicine; onClose(): void }) {
  const { t } = useTranslation()
  const canReview = useCan('write prescription')
  const unread = saved.read_as?.length === 0
  return (
    <Dialog
      open
      title={t('currentMeds.checkTitle', { medicine: saved.medicine })}
      closeLabel={t('app.icons.close')}
      onClose={onClose}
      width={560}
      role="alertdialog"
      footer={
        <Button variant="primary" onClick={onClose} data-autofocus>
          {t('currentMeds.checkOk')}
        </Button>
      }
    >
      {unread && (
        <div className={styles.notice}>
          <Alert type="error" title={t('currentMeds.notRecognisedHint')} />
        </div>
      )}
      {/* recording what the patient takes asks for no reason: whoever records it tells the doctor, or resolves it on the list */}
      <LineFindings findings={saved.findings ?? []} title={canReview ? t('currentMeds.recordedWarningDoctor') : t('currentMeds.recordedWarning')} />
    </Dialog>
  )
}

type StopForm = { stopped_on: string; category: StopCategory | ''; reason: string }

/** Stops a recorded medicine: from a day (today unless said), why in a category, and in words (required for "other"); at a visit, for its summary. A side effect suggests recording an allergy or intolerance. */
export function StopDialog({ m, appointmentId, onClose }: { m: CurrentMedicine; appointmentId?: number; onClose(): void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const stop = useStopCurrentMedicine()
  const form = useForm<StopForm>(
    { stopped_on: formatDay(today()), category: '', reason: '' },
    {
      category: (v) => (v ? undefined : t('currentMeds.categoryRequired')),
      reason: (v, all) => (all.category === 'other' && !v.trim() ? t('currentMeds.reasonRequired') : undefined),
    },
  )
  const v = form.values
  const submit = async () => {
    try {
      await stop.mutateAsync({ m, stopped_on: readPartialDay(v.stopped_on), category: v.category as StopCategory, reason: v.reason, appointmentId })
      toast.success(t('currentMeds.stopped', { medicine: m.medicine }))
      onClose()
    } catch (e) {
      showFieldErrors(e, form.fail, toast.error)
    }
  }
  return (
    <FormDialog title={t('currentMeds.stopTitle', { medicine: m.medicine })} okText={t('currentMeds.stop')} danger busy={stop.isPending} form={form} onSubmit={submit} onClose={onClose}>
      <Field label={t('currentMeds.stoppedOn')} error={form.errors.stopped_on}>
        {(c) => <Input {...c} maxLength={10} value={v.stopped_on} onChange={(e) => form.set('stopped_on', e.target.value)} />}
      </Field>
      <Field label={t('currentMeds.stopReason')} required error={form.errors.category}>
        {(c) => (
          <Select {...c} value={v.category} onChange={(category) => form.set('category', category)} options={[{ value: '' as const, label: '' }, ...STOP_CATEGORIES.map((c) => ({ value: c, label: t(`currentMeds.stopCategory.${c}`) }))]} />
        )}
      </Field>
      {v.category === 'side_effect' && (
        <div className={styles.notice}>
          <Alert type="info" title={t('currentMeds.allergyHint')} data-testid="allergy-hint" />
        </div>
      )}
      <Field label={v.category === 'other' ? t('currentMeds.stopDetails') : t('currentMeds.stopDetailsOptional')} required={v.category === 'other'} error={form.errors.reason}>
        {(c) => <TextArea {...c} rows={2} className={styles.grow} maxLength={500} value={v.reason} onChange={(e) => form.set('reason', e.target.value)} />}
      </Field>
    </FormDialog>
  )
}

/** Marks a recorded entry entered in error — made by accident, not a medicine the patient took and stopped — for a reason. */
export function InErrorDialog({ m, onClose }: { m: CurrentMedicine; onClose(): void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const mark = useMarkInError()
  const form = useForm({ reason: '' }, { reason: (v) => (v.trim() ? undefined : t('currentMeds.reasonRequired')) })
  const submit = async () => {
    try {
      await mark.mutateAsync({ m, reason: form.values.reason })
      toast.success(t('currentMeds.inErrorDone', { medicine: m.medicine }))
      onClose()
    } catch (e) {
      showFieldErrors(e, form.fail, toast.error)
    }
  }
  return (
    <FormDialog title={t('currentMeds.inErrorTitle', { medicine: m.medicine })} okText={t('currentMeds.inErrorOk')} danger busy={mark.isPending} form={form} onSubmit={submit} onClose={onClose}>
      <p className={`${styles.paragraph} ${styles.muted}`}>{t('currentMeds.inErrorHint')}</p>
      <Field label={t('currentMeds.inErrorReason')} required error={form.errors.reason}>
        {(c) => <TextArea {...c} rows={2} className={styles.grow} maxLength={500} placeholder={t('currentMeds.inErrorPlaceholder')} value={form.values.reason} onChange={(e) => form.set('reason', e.target.value)} />}
      </Field>
    </FormDialog>
  )
}
