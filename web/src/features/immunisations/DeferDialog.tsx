// A dose deferred at the screening (QĐ 1575/QĐ-BYT's "tạm hoãn tiêm chủng": a fever, an acute
// illness): recorded as a deferral of its own with the screening that found it, why, and the day
// to come back, from which the dose is due again (the forecast and the due list read it). A child
// who is unwell has every vaccine deferred, not one; a dose whose last day comes before the day to
// come back is said (the forecast keeps it due until then). A contraindication is not deferred.
import { useTranslation } from 'react-i18next'
import { showFieldErrors } from '../../lib/formErrors'
import { formatDay } from '../../lib/time'
import { Alert } from '../../light/Alert'
import { DateInput } from '../../light/DateInput'
import { Field } from '../../light/Field'
import { useForm } from '../../light/form'
import { TextArea } from '../../light/Input'
import { RadioGroup } from '../../light/RadioGroup'
import { useToast } from '../../light/Toast'
import { useCatalogue } from './api/getCatalogue'
import { useRecordImmunisation } from './api/recordImmunisation'
import type { RecordInput, Recommendation } from './api/types'
import { ImmunisationDialog } from './Dialogs'
import { blankInput, today } from './parts'
import styles from './immunisations.module.css'

/** The longest a deferral lasts (the server's rule): a longer wait is a contraindication with an end date. */
export const MAX_DEFERRAL_DAYS = 90

/** The passing reasons (the check marks them deferrable) that are about the child, not the vaccine: every vaccine waits. */
export const UNWELL: string[] = ['screening_fever', 'screening_acute_illness', 'screening_heart_lung', 'screening_consciousness']

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
  antigens: string[]
  screening: RecordInput['screening']
  reason: string
  /** The child is unwell (a fever, an acute illness): every vaccine is deferred unless said otherwise. */
  unwell: boolean
  /** What the check found that contraindicates this vaccine (not deferred: a doctor records it); then only every vaccine may be deferred. */
  contraindications?: string[]
}

type Scope = 'all' | 'vaccine'

/** The open doses of the scope whose last day comes before the day to come back. */
export function lostBy(forecast: Recommendation[], antigens: string[] | null, until: string): Recommendation[] {
  if (!until) return []
  return forecast.filter((r) => ['due', 'overdue', 'upcoming', 'deferred'].includes(r.status) && r.latest_on && r.latest_on < until && (!antigens || antigens.includes(r.antigen)))
}

export function DeferDialog({ patientId, deferral, forecast = [], onClose }: { patientId: number; deferral: Deferral; forecast?: Recommendation[]; onClose(): void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const catalogue = useCatalogue()
  const save = useRecordImmunisation(patientId)
  const on = today()
  const contraindicated = Boolean(deferral.contraindications?.length)
  const form = useForm<{ scope: Scope; reason: string; until_on: string }>(
    { scope: deferral.unwell || contraindicated ? 'all' : 'vaccine', reason: deferral.reason, until_on: '' },
    {
      reason: (v) => (v.trim() ? undefined : t('immunisations.reasonRequired')),
      until_on: (v) => (!v ? t('immunisations.backOnRequired') : v <= on ? t('immunisations.backOnAfter') : v > plusDays(on, MAX_DEFERRAL_DAYS) ? t('immunisations.backOnTooLate') : undefined),
    },
  )
  const v = form.values
  const lost = lostBy(forecast, v.scope === 'all' ? null : deferral.antigens, v.until_on)
  const antigen = (key: string) => catalogue.data?.antigens.find((a) => a.key === key)?.name ?? key
  const submit = async () => {
    try {
      await save.mutateAsync({
        ...blankInput('deferred'),
        vaccine: v.scope === 'all' ? '' : deferral.vaccine,
        occurred_on: on,
        until_on: v.until_on,
        reason: v.reason.trim(),
        screening: deferral.screening,
      })
      toast.success(t(v.scope === 'all' ? 'immunisations.deferredAll' : 'immunisations.deferred', { vaccine: deferral.vaccineName }))
      onClose()
    } catch (e) {
      showFieldErrors(e, form.fail, toast.error)
    }
  }
  return (
    <ImmunisationDialog
      title={v.scope === 'all' ? t('immunisations.deferAllTitle') : t('immunisations.deferTitle', { vaccine: deferral.vaccineName })}
      okText={t('immunisations.deferOk')}
      busy={save.isPending}
      form={form}
      onSubmit={submit}
      onClose={onClose}
    >
      <p className={styles.paragraph}>{t('immunisations.deferHint')}</p>
      {contraindicated && (
        <div className={styles.notice} data-testid="defer-contraindicated">
          <Alert type="error" title={t('immunisations.deferNotContraindication', { vaccine: deferral.vaccineName })} description={deferral.contraindications?.join('; ')} />
        </div>
      )}
      <RadioGroup<Scope>
        legend={t('immunisations.deferScope')}
        value={v.scope}
        onChange={(s) => form.set('scope', s)}
        options={[
          { value: 'all', label: t('immunisations.deferScopeAll') },
          { value: 'vaccine', label: t('immunisations.deferScopeVaccine', { vaccine: deferral.vaccineName }), disabled: contraindicated },
        ]}
      />
      <Field label={t('immunisations.reasonLabel')} required error={form.errors.reason}>
        {(c) => <TextArea {...c} rows={3} maxLength={500} value={v.reason} onChange={(e) => form.set('reason', e.target.value)} />}
      </Field>
      <Field label={t('immunisations.backOn')} required help={t('immunisations.backOnHint')} error={form.errors.until_on}>
        {(c) => <DateInput {...c} className={styles.fullWidth} clearable min={plusDays(on, 1)} max={plusDays(on, MAX_DEFERRAL_DAYS)} value={v.until_on} onChange={(d) => form.set('until_on', d)} />}
      </Field>
      {lost.length > 0 && (
        <div className={styles.notice} data-testid="defer-lost">
          <Alert
            type="warning"
            title={t('immunisations.deferLost')}
            description={lost.map((r) => t('immunisations.deferLostDose', { antigen: antigen(r.antigen), n: r.dose_number, date: formatDay(r.latest_on ?? '') })).join('; ')}
          />
        </div>
      )}
    </ImmunisationDialog>
  )
}
