// Giving a dose here: the product (the clinic's stocked ones first), lot and expiry, site and
// route (the product's route and the site for the child's age filled in, editable), the day
// (today unless said), the dose's number if the nurse wants to say it, and the screening before
// the dose (ScreeningFields), stored with it. As the form is filled the server's
// safety check runs and its findings appear where the thing they are about is typed: a stop as an
// alert, a warning as a notice. With any finding the dose is saved only with a reason to go ahead
// (the server refuses it otherwise, 422, and that refusal's findings are shown the same way); an
// expired lot is never given.
import { useCan } from '../../lib/auth/can'
import { useEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useDebounced } from '../../lib/debounce'
import { ApiError } from '../../lib/api'
import { showFieldErrors } from '../../lib/formErrors'
import { Alert } from '../../light/Alert'
import { Button } from '../../light/Button'
import { DateInput } from '../../light/DateInput'
import { Field } from '../../light/Field'
import { useForm } from '../../light/form'
import { Input, Select, TextArea } from '../../light/Input'
import { useToast } from '../../light/Toast'
import { checkImmunisation, useImmunisationCheck } from './api/checkImmunisation'
import { useCatalogue } from './api/getCatalogue'
import { useRecordImmunisation } from './api/recordImmunisation'
import { NEEDS_OVERRIDE, SCREENING_QUESTIONS, type Finding, type RecordInput } from './api/types'
import { UNWELL, type Deferral } from './DeferDialog'
import { ImmunisationDialog } from './Dialogs'
import { ageInMonths, antigenNames, blankInput, defaultSite, FindingNotes, today, VaccinePicker } from './parts'
import { answerOf, badTemperature, feverFrom, ScreeningFields, temperatureOf, unanswered, type Answers, unscreened } from './ScreeningFields'
import styles from './immunisations.module.css'

interface GiveForm {
  vaccine: string
  lot: string
  expiry: string
  site: string
  route: string
  occurred_on: string
  dose_number: string
  answers: Answers
  temperature: string
  note: string
  override_reason: string
}

/** The record the form stands for, as the check and the save take it (the temperature read in the user's language). */
export function giveInput(v: GiveForm, lang = 'en'): RecordInput {
  const n = Number.parseInt(v.dose_number, 10)
  return {
    ...blankInput('given'),
    vaccine: v.vaccine,
    lot: v.lot.trim(),
    expiry: v.expiry,
    site: v.site,
    route: v.route,
    occurred_on: v.occurred_on,
    dose_number: Number.isFinite(n) && n > 0 ? n : null,
    note: v.note.trim(),
    screening: { ...(Object.fromEntries(SCREENING_QUESTIONS.map((q) => [q, answerOf(v.answers[q])])) as RecordInput['screening']), temperature_c: temperatureOf(v.temperature, lang) },
    override_reason: v.override_reason.trim(),
  }
}

export function GiveDialog({
  patientId,
  vaccine: initialVaccine = '',
  birthDate,
  onClose,
  appointmentId,
  onDefer,
}: {
  patientId: number
  vaccine?: string
  birthDate?: string
  onClose(): void
  appointmentId?: number
  /** Offered when the check finds a reason not to give the dose today: the dose deferred instead, with the screening that found it. */
  onDefer?(d: Deferral): void
}) {
  const { t, i18n } = useTranslation()
  const lang = i18n.language
  const toast = useToast()
  const catalogue = useCatalogue()
  const save = useRecordImmunisation(patientId)
  // The findings of a save the server refused for want of a reason, for the record it refused.
  const [refused, setRefused] = useState<{ key: string; findings: Finding[] } | null>(null)
  const [problem, setProblem] = useState('')
  const form = useForm<GiveForm>(
    { vaccine: initialVaccine, lot: '', expiry: '', site: '', route: '', occurred_on: today(), dose_number: '', answers: unanswered(), temperature: '', note: '', override_reason: '' },
    {
      vaccine: (v) => (v ? undefined : t('immunisations.vaccineRequired')),
      lot: (v) => (v.trim() ? undefined : t('immunisations.lotRequired')),
      expiry: (v) => (v ? undefined : t('immunisations.expiryRequired')),
      temperature: (v) => (badTemperature(v, lang) ? t('immunisations.temperatureRange') : undefined),
      answers: (a, all) => (unscreened(a, all.temperature).length ? t('immunisations.screeningRequired') : undefined),
      occurred_on: (v) => (v ? undefined : t('immunisations.dateRequired')),
      dose_number: (v) => (!v.trim() || /^\d{1,2}$/.test(v.trim()) ? undefined : t('immunisations.doseNumberFormat')),
    },
  )
  const v = form.values
  // The check reads what is typed (not the reason to go ahead), once it has stopped changing.
  const input = giveInput({ ...v, override_reason: '' }, lang)
  const settled = useDebounced(input, 300)
  const check = useImmunisationCheck(patientId, settled, Boolean(settled.vaccine && settled.occurred_on) && !badTemperature(v.temperature, lang))
  const key = JSON.stringify(input)
  const checked = v.vaccine ? (check.data ?? []) : []
  const findings = checked.length ? checked : refused?.key === key ? refused.findings : []
  const expired = findings.some((f) => f.code === 'expired_lot')
  // A stop is a doctor's to pass (the server refuses anyone else's reason).
  const isDoctor = useCan('write diagnosis')
  const stopped = !isDoctor && findings.some((f) => f.severity === 'stop')
  // A note (info) is read, not overridden.
  const needsReason = findings.some((f) => f.severity !== 'info')
  const vaccine = catalogue.data?.vaccines.find((x) => x.key === v.vaccine)
  // The route is the product's, the site the usual one for it at the child's age: filled in when the vaccine is chosen, editable.
  const choose = (key: string) => {
    const chosen = catalogue.data?.vaccines.find((x) => x.key === key)
    form.set('vaccine', key)
    if (chosen) {
      form.set('route', chosen.route)
      form.set('site', defaultSite(chosen.route, birthDate, v.occurred_on || today()))
    }
  }
  const loaded = Boolean(catalogue.data)
  useEffect(() => {
    // A vaccine named on opening (from the forecast): its route and site once the catalogue is read.
    if (loaded && initialVaccine) choose(initialVaccine)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded])

  const submit = async () => {
    const body = giveInput(form.values, lang)
    setProblem('')
    // With findings, a dose is given only for a reason to go ahead.
    if (stopped) return
    if (needsReason && !body.override_reason) {
      form.fail({ override_reason: t('immunisations.overrideRequired') })
      return
    }
    try {
      await save.mutateAsync({ ...body, appointment_id: appointmentId ?? null })
      toast.success(t('immunisations.given', { vaccine: vaccine?.name ?? body.vaccine }))
      onClose()
    } catch (e) {
      if (e instanceof ApiError && e.code === NEEDS_OVERRIDE) {
        // The refusal names its findings by code; the check says them in full, for the same record.
        const again = await checkImmunisation(patientId, { ...body, override_reason: '' }).catch(() => [] as Finding[])
        setRefused({ key: JSON.stringify({ ...body, override_reason: '' }), findings: again })
        if (!again.some((f) => f.severity !== 'info') || body.override_reason) setProblem(e.message)
        else form.fail({ override_reason: t('immunisations.overrideRequired') })
        return
      }
      showFieldErrors(e, (f) => form.fail(f), (text) => setProblem(text))
    }
  }

  // A passing reason not to give it today (a fever, an acute illness…): the dose may be deferred
  // instead. A contraindication is not deferred (a doctor records it).
  const passing = findings.filter((f) => f.deferrable)
  const deferrable = Boolean(onDefer && vaccine && !expired && passing.length)
  const defer = () =>
    vaccine &&
    onDefer?.({
      vaccine: vaccine.key,
      vaccineName: vaccine.name,
      antigens: vaccine.antigens,
      screening: giveInput(form.values, lang).screening,
      unwell: passing.some((f) => UNWELL.includes(f.code)),
      contraindications: findings.filter((f) => f.severity === 'stop' && !f.deferrable).map((f) => f.message),
      reason: passing
        .map((f) => f.message)
        .join('; ')
        .slice(0, 500),
    })
  const sites = catalogue.data?.sites ?? []
  const routes = catalogue.data?.routes ?? []
  return (
    <ImmunisationDialog title={t('immunisations.giveTitle')} okText={t('immunisations.save')} busy={save.isPending} form={form} onSubmit={submit} onClose={onClose} okDisabled={expired} okTestId="give-ok" width={600}>
      {problem && (
        <div className={styles.notice}>
          <Alert type="error" title={problem} />
        </div>
      )}
      <Field label={t('immunisations.vaccine')} required error={form.errors.vaccine} help={vaccine ? [antigenNames(catalogue.data, vaccine.antigens), vaccine.live ? t('immunisations.live') : ''].filter(Boolean).join(' · ') : undefined}>
        {(c) => <VaccinePicker catalogue={catalogue.data} value={v.vaccine} onChange={choose} stockedFirst label={t('immunisations.vaccine')} control={c} />}
      </Field>
      <FindingNotes findings={findings} field="vaccine" />
      <div className={styles.fieldRow}>
        <Field label={t('immunisations.lot')} required error={form.errors.lot} className={styles.wide}>
          {(c) => <Input {...c} maxLength={60} value={v.lot} onChange={(e) => form.set('lot', e.target.value)} />}
        </Field>
        <Field label={t('immunisations.expiry')} required error={form.errors.expiry} className={styles.wide}>
          {(c) => <DateInput {...c} className={styles.fullWidth} clearable value={v.expiry} onChange={(d) => form.set('expiry', d)} />}
        </Field>
      </div>
      <FindingNotes findings={findings} field="expiry" />
      <div className={styles.fieldRow}>
        <Field label={t('immunisations.siteLabel')} error={form.errors.site} className={styles.wide}>
          {(c) => <Select {...c} value={v.site} onChange={(s) => form.set('site', s)} options={[{ value: '', label: '' }, ...sites.map((s) => ({ value: s, label: t(`immunisations.site.${s}`, { defaultValue: s }) }))]} />}
        </Field>
        <Field label={t('immunisations.routeLabel')} error={form.errors.route} className={styles.wide}>
          {(c) => <Select {...c} value={v.route} onChange={(s) => form.set('route', s)} options={[{ value: '', label: '' }, ...routes.map((s) => ({ value: s, label: t(`immunisations.route.${s}`, { defaultValue: s }) }))]} />}
        </Field>
      </div>
      <div className={styles.fieldRow}>
        <Field label={t('immunisations.givenOn')} required error={form.errors.occurred_on} className={styles.wide}>
          {(c) => <DateInput {...c} className={styles.fullWidth} max={today()} value={v.occurred_on} onChange={(d) => form.set('occurred_on', d)} />}
        </Field>
        <Field label={t('immunisations.doseNumber')} help={t('immunisations.doseNumberHint')} error={form.errors.dose_number} className={styles.wide}>
          {(c) => <Input {...c} inputMode="numeric" maxLength={2} value={v.dose_number} onChange={(e) => form.set('dose_number', e.target.value)} />}
        </Field>
      </div>
      <FindingNotes findings={findings} field="occurred_on" />
      <ScreeningFields
        vaccine={vaccine}
        answers={v.answers}
        onAnswer={(q, a) => form.set('answers', { ...v.answers, [q]: a })}
        temperature={v.temperature}
        onTemperature={(text) => form.set('temperature', text)}
        temperatureError={form.errors.temperature}
        missing={form.errors.answers ? unscreened(v.answers, v.temperature) : []}
        findings={findings}
        feverFrom={feverFrom(catalogue.data)}
        ageMonths={birthDate ? ageInMonths(birthDate, v.occurred_on || today()) : undefined}
      />
      <FindingNotes findings={findings} field="other" />
      <Field label={t('immunisations.note')} error={form.errors.note}>
        {(c) => <TextArea {...c} rows={2} maxLength={1000} value={v.note} onChange={(e) => form.set('note', e.target.value)} />}
      </Field>
      {stopped && !expired && (
        <div className={styles.notice}>
          <Alert type="error" title={t('immunisations.stopNeedsDoctor')} />
        </div>
      )}
      {deferrable && (
        <div className={styles.notice}>
          <Button onClick={defer} data-testid="give-defer">
            {t('immunisations.defer')}
          </Button>
        </div>
      )}
      {needsReason && !expired && !stopped && (
        <Field label={t('immunisations.overrideReason')} required help={t('immunisations.overrideHint')} error={form.errors.override_reason}>
          {(c) => <TextArea {...c} rows={2} maxLength={500} value={v.override_reason} onChange={(e) => form.set('override_reason', e.target.value)} />}
        </Field>
      )}
      {expired && (
        <div className={styles.notice}>
          <Alert type="error" title={t('immunisations.expiredNoOverride')} />
        </div>
      )}
    </ImmunisationDialog>
  )
}
