// The immunisation record's smaller dialogs: a dose recorded from elsewhere (a card, a registry,
// the parent's word), a refusal or contraindication of an antigen, and an entry marked entered in
// error (a reaction's dialogs are ReactionDialog.tsx). Each is a light dialog whose fields are one form, checked on
// OK, the server's refusal shown under the field it names.
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../lib/api'
import { showFieldErrors } from '../../lib/formErrors'
import { formatDay } from '../../lib/time'
import { Checkbox } from '../../light/Checkbox'
import { DateInput } from '../../light/DateInput'
import { Field } from '../../light/Field'
import { useForm } from '../../light/form'
import { FormDialog, type FormDialogProps } from '../../light/FormDialog'
import { Input, Select, TextArea } from '../../light/Input'
import { RadioGroup } from '../../light/RadioGroup'
import { useToast } from '../../light/Toast'
import { useCatalogue } from './api/getCatalogue'
import { useMarkInError } from './api/markInError'
import { useRecordImmunisation } from './api/recordImmunisation'
import type { ImmunisationRecord } from './api/types'
import { blankInput, today, VaccinePicker } from './parts'
import styles from './immunisations.module.css'

/**
 * A dialog of the record: only OK sends it. These are forms of several fields where a dose half
 * recorded must never be saved by an Enter in a field (the light dialogs' convention for them).
 */
export function ImmunisationDialog<T extends object>(props: Omit<FormDialogProps<T>, 'cancelText' | 'enterSubmits'>) {
  const { t } = useTranslation()
  return <FormDialog {...props} cancelText={t('immunisations.cancel')} enterSubmits={false} />
}

type Source = 'card' | 'registry' | 'parent'

/** A dose given elsewhere: the product, the day, where the record of it comes from and where it was given. */
export function ElsewhereDialog({ patientId, onClose }: { patientId: number; onClose(): void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const catalogue = useCatalogue()
  const save = useRecordImmunisation(patientId)
  const form = useForm<{ vaccine: string; occurred_on: string; source: Source | ''; place: string; lot: string; dose_number: string; note: string; light: boolean }>(
    { vaccine: '', occurred_on: '', source: '', place: '', lot: '', dose_number: '', note: '', light: false },
    {
      vaccine: (v) => (v ? undefined : t('immunisations.vaccineRequired')),
      occurred_on: (v) => (v ? undefined : t('immunisations.dateRequired')),
      source: (v) => (v ? undefined : t('immunisations.sourceRequired')),
      dose_number: (v) => (!v.trim() || /^\d{1,2}$/.test(v.trim()) ? undefined : t('immunisations.doseNumberFormat')),
    },
  )
  const v = form.values
  // A hepatitis B dose: whether the baby weighed under 2,000 g (then a birth dose does not count).
  const hepb = Boolean(catalogue.data?.vaccines.find((x) => x.key === v.vaccine)?.antigens.includes('hepb'))
  const submit = async () => {
    const n = Number.parseInt(v.dose_number, 10)
    const blank = blankInput('elsewhere')
    try {
      await save.mutateAsync({
        ...blank,
        vaccine: v.vaccine,
        occurred_on: v.occurred_on,
        source: v.source,
        place: v.place.trim(),
        lot: v.lot.trim(),
        dose_number: Number.isFinite(n) && n > 0 ? n : null,
        note: v.note.trim(),
        screening: { ...blank.screening, weight_under_2000g: hepb && v.light ? true : null },
      })
      toast.success(t('immunisations.saved'))
      onClose()
    } catch (e) {
      showFieldErrors(e, form.fail, toast.error)
    }
  }
  return (
    <ImmunisationDialog title={t('immunisations.elsewhereTitle')} okText={t('immunisations.save')} busy={save.isPending} form={form} onSubmit={submit} onClose={onClose}>
      <Field label={t('immunisations.vaccine')} required error={form.errors.vaccine}>
        {(c) => <VaccinePicker catalogue={catalogue.data} value={v.vaccine} onChange={(k) => form.set('vaccine', k)} stockedFirst={false} label={t('immunisations.vaccine')} control={c} />}
      </Field>
      <div className={styles.fieldRow}>
        <Field label={t('immunisations.givenOn')} required error={form.errors.occurred_on} className={styles.wide}>
          {(c) => <DateInput {...c} className={styles.fullWidth} clearable max={today()} value={v.occurred_on} onChange={(d) => form.set('occurred_on', d)} />}
        </Field>
        <Field label={t('immunisations.doseNumber')} error={form.errors.dose_number} className={styles.wide}>
          {(c) => <Input {...c} inputMode="numeric" maxLength={2} value={v.dose_number} onChange={(e) => form.set('dose_number', e.target.value)} />}
        </Field>
      </div>
      <RadioGroup<Source | ''>
        legend={t('immunisations.sourceLabel')}
        required
        error={form.errors.source}
        value={v.source}
        onChange={(s) => form.set('source', s)}
        options={(['card', 'registry', 'parent'] as const).map((s) => ({ value: s, label: t(`immunisations.source.${s}`) }))}
      />
      {hepb && (
        <div className={styles.checkbox}>
          <Checkbox checked={v.light} onChange={(x) => form.set('light', x)}>
            {t('immunisations.lightBaby')}
          </Checkbox>
        </div>
      )}
      <Field label={t('immunisations.place')} help={t('immunisations.placeHint')} error={form.errors.place}>
        {(c) => <Input {...c} maxLength={200} value={v.place} onChange={(e) => form.set('place', e.target.value)} />}
      </Field>
      <Field label={t('immunisations.lot')} error={form.errors.lot}>
        {(c) => <Input {...c} maxLength={60} value={v.lot} onChange={(e) => form.set('lot', e.target.value)} />}
      </Field>
      <Field label={t('immunisations.note')} error={form.errors.note}>
        {(c) => <TextArea {...c} rows={2} maxLength={1000} value={v.note} onChange={(e) => form.set('note', e.target.value)} />}
      </Field>
    </ImmunisationDialog>
  )
}

type ExclusionKind = 'refused' | 'contraindicated' | 'deferred'

/** A refusal (the parent's), a contraindication (the doctor's) or a deferral of an antigen: why, from when, until when (a deferral: the day to come back, required). */
export function ExclusionDialog({ patientId, onClose }: { patientId: number; onClose(): void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const catalogue = useCatalogue()
  const save = useRecordImmunisation(patientId)
  const form = useForm<{ kind: ExclusionKind; antigen: string; reason: string; occurred_on: string; until_on: string }>(
    { kind: 'refused', antigen: '', reason: '', occurred_on: today(), until_on: '' },
    {
      antigen: (v) => (v ? undefined : t('immunisations.antigenRequired')),
      reason: (v) => (v.trim() ? undefined : t('immunisations.reasonRequired')),
      occurred_on: (v) => (v ? undefined : t('immunisations.dateRequired')),
      until_on: (v, all) =>
        all.kind === 'deferred' && !v
          ? t('immunisations.backOnRequired')
          : all.kind === 'deferred' && all.occurred_on && v <= all.occurred_on
            ? t('immunisations.backOnAfter')
            : v && all.occurred_on && v < all.occurred_on
              ? t('immunisations.untilBeforeFrom')
              : undefined,
    },
  )
  const v = form.values
  const antigens = [...(catalogue.data?.antigens ?? [])].sort((a, b) => a.name.localeCompare(b.name))
  const submit = async () => {
    try {
      await save.mutateAsync({ ...blankInput(v.kind), antigen: v.antigen, reason: v.reason.trim(), occurred_on: v.occurred_on, until_on: v.until_on })
      toast.success(t('immunisations.saved'))
      onClose()
    } catch (e) {
      showFieldErrors(e, form.fail, toast.error)
    }
  }
  return (
    <ImmunisationDialog title={t('immunisations.exclusionTitle')} okText={t('immunisations.save')} busy={save.isPending} form={form} onSubmit={submit} onClose={onClose}>
      <RadioGroup<ExclusionKind>
        legend={t('immunisations.kindLabel')}
        look="button"
        value={v.kind}
        onChange={(k) => form.set('kind', k)}
        options={(['refused', 'contraindicated', 'deferred'] as const).map((k) => ({ value: k, label: t(`immunisations.kind.${k}`) }))}
        help={t(`immunisations.kindHint.${v.kind}`)}
      />
      <Field label={t('immunisations.antigen')} required error={form.errors.antigen}>
        {(c) => <Select {...c} value={v.antigen} onChange={(a) => form.set('antigen', a)} options={[{ value: '', label: '' }, ...antigens.map((a) => ({ value: a.key, label: a.name }))]} />}
      </Field>
      <Field label={t('immunisations.reasonLabel')} required error={form.errors.reason}>
        {(c) => <TextArea {...c} rows={2} maxLength={500} value={v.reason} onChange={(e) => form.set('reason', e.target.value)} />}
      </Field>
      <div className={styles.fieldRow}>
        <Field label={t('immunisations.from')} required error={form.errors.occurred_on} className={styles.wide}>
          {(c) => <DateInput {...c} className={styles.fullWidth} max={today()} value={v.occurred_on} onChange={(d) => form.set('occurred_on', d)} />}
        </Field>
        {v.kind === 'deferred' ? (
          <Field label={t('immunisations.backOn')} required help={t('immunisations.backOnHint')} error={form.errors.until_on} className={styles.wide}>
            {(c) => <DateInput {...c} className={styles.fullWidth} clearable min={v.occurred_on || undefined} value={v.until_on} onChange={(d) => form.set('until_on', d)} />}
          </Field>
        ) : (
          <Field label={t('immunisations.until')} help={t('immunisations.untilHint')} error={form.errors.until_on} className={styles.wide}>
            {(c) => <DateInput {...c} className={styles.fullWidth} clearable min={v.occurred_on || undefined} value={v.until_on} onChange={(d) => form.set('until_on', d)} />}
          </Field>
        )}
      </div>
    </ImmunisationDialog>
  )
}

/** Marks an entry entered in error (the wrong child, the wrong vaccine), for a reason; an entry changed meanwhile is read again. */
export function InErrorDialog({ patientId, r, onClose }: { patientId: number; r: ImmunisationRecord; onClose(): void }) {
  const { t } = useTranslation()
  const mark = useMarkInError(patientId)
  const what = r.vaccine_name || r.antigen_name || r.vaccine || r.antigen
  return (
    <ReasonDialog
      title={t('immunisations.inErrorTitle', { what, date: formatDay(r.occurred_on) })}
      hint={t('immunisations.inErrorHint')}
      busy={mark.isPending}
      mark={(reason) => mark.mutateAsync({ r, reason })}
      onClose={onClose}
    />
  )
}

/** Asks why something is marked entered in error and marks it: a reason is needed; one changed meanwhile (409) is read again and said so. */
export function ReasonDialog({ title, hint, busy, mark, onClose }: { title: string; hint: string; busy: boolean; mark(reason: string): Promise<unknown>; onClose(): void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const form = useForm({ reason: '' }, { reason: (v) => (v.trim() ? undefined : t('immunisations.reasonRequired')) })
  const submit = useVersionedSubmit(form.fail, onClose, async () => {
    await mark(form.values.reason.trim())
    toast.success(t('immunisations.inErrorDone'))
  })
  return (
    <ImmunisationDialog title={title} okText={t('immunisations.inErrorOk')} danger busy={busy} form={form} onSubmit={submit} onClose={onClose}>
      <p className={styles.paragraph}>{hint}</p>
      <Field label={t('immunisations.reasonLabel')} required error={form.errors.reason}>
        {(c) => <TextArea {...c} rows={2} maxLength={500} value={form.values.reason} onChange={(e) => form.set('reason', e.target.value)} />}
      </Field>
    </ImmunisationDialog>
  )
}

/**
 * A dialog's submit of a change made at the version read: done, the dialog closes; one changed
 * meanwhile (409) closes too and says so, the card reading it again (the write's settling does);
 * any other refusal is shown under the fields it names.
 */
export function useVersionedSubmit(fail: (errors: Record<string, string>) => void, onClose: () => void, send: () => Promise<unknown>) {
  const { t } = useTranslation()
  const toast = useToast()
  return async () => {
    try {
      await send()
      onClose()
    } catch (e) {
      if (e instanceof ApiError && e.status === 409) {
        toast.warning(e.message || t('immunisations.stale'))
        onClose()
        return
      }
      showFieldErrors(e, fail, toast.error)
    }
  }
}
