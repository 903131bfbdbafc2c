// A dose deferred at the screening (QĐ 1575/QĐ-BYT's "tạm hoãn tiêm chủng": a fever, an acute
// illness): recorded as a deferral of its own with the screening that found it, why, and the day
// to come back, from which the dose is due again (the forecast and the due list read it).
import { useTranslation } from 'react-i18next'
import { showFieldErrors } from '../../lib/formErrors'
import { DateInput } from '../../light/DateInput'
import { Field } from '../../light/Field'
import { useForm } from '../../light/form'
import { TextArea } from '../../light/Input'
import { useToast } from '../../light/Toast'
import { useRecordImmunisation } from './api/recordImmunisation'
import type { RecordInput } from './api/types'
import { ImmunisationDialog } from './Dialogs'
import { blankInput, today } from './parts'
import styles from './immunisations.module.css'

/** The longest a deferral lasts (the server's rule): a longer wait is a contraindication with an end date. */
export const MAX_DEFERRAL_DAYS = 90

/** Day d (YYYY-MM-DD) plus n days. */
export function plusDays(d: string, n: number): string {
  const [y, m, day] = d.split('-').map(Number)
  const t = new Date(Date.UTC(y, m - 1, day + n))
  return t.toISOString().slice(0, 10)
}

/** What the give dialog hands over when a dose is deferred instead of given. */
export interface Deferral {
  vaccine: string
  vaccineName: string
  screening: RecordInput['screening']
  reason: string
}

export function DeferDialog({ patientId, deferral, onClose }: { patientId: number; deferral: Deferral; onClose(): void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const save = useRecordImmunisation(patientId)
  const on = today()
  const form = useForm(
    { reason: deferral.reason, until_on: '' },
    {
      reason: (v) => (v.trim() ? undefined : t('immunisations.reasonRequired')),
      until_on: (v) => (!v ? t('immunisations.backOnRequired') : v <= on ? t('immunisations.backOnAfter') : v > plusDays(on, MAX_DEFERRAL_DAYS) ? t('immunisations.backOnTooLate') : undefined),
    },
  )
  const v = form.values
  const submit = async () => {
    try {
      await save.mutateAsync({ ...blankInput('deferred'), vaccine: deferral.vaccine, occurred_on: on, until_on: v.until_on, reason: v.reason.trim(), screening: deferral.screening })
      toast.success(t('immunisations.deferred', { vaccine: deferral.vaccineName }))
      onClose()
    } catch (e) {
      showFieldErrors(e, form.fail, toast.error)
    }
  }
  return (
    <ImmunisationDialog title={t('immunisations.deferTitle', { vaccine: deferral.vaccineName })} okText={t('immunisations.deferOk')} busy={save.isPending} form={form} onSubmit={submit} onClose={onClose}>
      <p className={styles.paragraph}>{t('immunisations.deferHint')}</p>
      <Field label={t('immunisations.reasonLabel')} required error={form.errors.reason}>
        {(c) => <TextArea {...c} rows={3} maxLength={500} value={v.reason} onChange={(e) => form.set('reason', e.target.value)} />}
      </Field>
      <Field label={t('immunisations.backOn')} required help={t('immunisations.backOnHint')} error={form.errors.until_on}>
        {(c) => <DateInput {...c} className={styles.fullWidth} min={plusDays(on, 1)} max={plusDays(on, MAX_DEFERRAL_DAYS)} value={v.until_on} onChange={(d) => form.set('until_on', d)} />}
      </Field>
    </ImmunisationDialog>
  )
}
