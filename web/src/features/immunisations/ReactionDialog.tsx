// A reaction after a dose (an adverse event following immunisation, AEFI): when it began (the
// day, and the hour if known), what, how bad, whether serious, how it ended (the WHO AEFI
// reporting form's outcomes), and when and to whom it was reported. A serious one is to be
// reported within 24 hours (Viet Nam's Thông tư 34/2018/TT-BYT and QĐ 1830/QĐ-BYT: to the
// district health centre; WHO Global Manual on Surveillance of AEFI): the dialog says so as soon
// as it is ticked, and the chart marks one not yet reported. A reaction recorded by mistake is
// marked entered in error with a reason.
import { useTranslation } from 'react-i18next'
import { showFieldErrors } from '../../lib/formErrors'
import { formatDay } from '../../lib/time'
import { Alert } from '../../light/Alert'
import { Checkbox } from '../../light/Checkbox'
import { DateInput } from '../../light/DateInput'
import { Field } from '../../light/Field'
import { useForm } from '../../light/form'
import { Input, Select, TextArea } from '../../light/Input'
import { RadioGroup } from '../../light/RadioGroup'
import { useToast } from '../../light/Toast'
import { useCatalogue } from './api/getCatalogue'
import { useFollowUpReaction } from './api/followUpReaction'
import { useMarkReactionInError } from './api/markReactionInError'
import { useRecordReaction } from './api/recordReaction'
import { OUTCOMES, type ImmunisationRecord, type Reaction, type ReactionInput } from './api/types'
import { ImmunisationDialog, ReasonDialog, useVersionedSubmit } from './Dialogs'
import { today } from './parts'
import styles from './immunisations.module.css'

type Severity = ReactionInput['severity']

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/

// Reactions that are serious by what they are (Viet Nam's Nghị định 104/2016/NĐ-CP: tai biến nặng
// — life-threatening: anaphylaxis, convulsions; persistent crying and a hypotonic-hyporesponsive
// episode are not on its list, the nurse ticks them when they were): choosing one ticks
// "serious", which asks for its report (the nurse may untick it); choosing another instead
// unticks what the first ticked.
const SERIOUS_KINDS = ['anaphylaxis', 'seizure']

export function ReactionDialog({ patientId, r, onClose }: { patientId: number; r: ImmunisationRecord; onClose(): void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const catalogue = useCatalogue()
  const save = useRecordReaction(patientId)
  const form = useForm<ReactionInput>(
    { onset_on: today(), onset_time: '', reaction: '', severity: 'mild', serious: false, outcome: '', description: '', reported_to: '', reported_on: '', add_allergy: false },
    {
      onset_on: (v) => (v ? undefined : t('immunisations.dateRequired')),
      onset_time: (v) => (!v.trim() || TIME.test(v.trim()) ? undefined : t('immunisations.timeFormat')),
      reaction: (v) => (v ? undefined : t('immunisations.reactionRequired')),
      description: (v, all) => (all.reaction === 'other' && !v.trim() ? t('immunisations.describeOther') : undefined),
      reported_on: (v, all) => (v && all.onset_on && v < all.onset_on ? t('immunisations.reportedBeforeOnset') : undefined),
    },
  )
  const v = form.values
  const reactions = catalogue.data?.reactions ?? []
  const submit = async () => {
    try {
      const saved = await save.mutateAsync({ id: r.id, input: { ...v, add_allergy: v.reaction === 'anaphylaxis' && v.add_allergy, onset_time: v.onset_time.trim(), description: v.description.trim(), reported_to: v.reported_to.trim() } })
      toast.success(t(saved.allergy_added ? 'immunisations.reactionSavedAllergy' : 'immunisations.reactionSaved', { vaccine: r.vaccine_name || r.vaccine }))
      onClose()
    } catch (e) {
      showFieldErrors(e, form.fail, toast.error)
    }
  }
  return (
    <ImmunisationDialog title={t('immunisations.reactionTitle', { vaccine: r.vaccine_name || r.vaccine, date: formatDay(r.occurred_on) })} okText={t('immunisations.save')} busy={save.isPending} form={form} onSubmit={submit} onClose={onClose} width={560}>
      <Field label={t('immunisations.reactionLabel')} required error={form.errors.reaction}>
        {(c) => <Select {...c} value={v.reaction} onChange={(x) => form.update({ reaction: x, serious: SERIOUS_KINDS.includes(x) || (v.serious && !SERIOUS_KINDS.includes(v.reaction)), add_allergy: x === 'anaphylaxis' })} options={[{ value: '', label: '' }, ...reactions.map((x) => ({ value: x, label: t(`immunisations.reaction.${x}`, { defaultValue: x }) }))]} />}
      </Field>
      <div className={styles.fieldRow}>
        <Field label={t('immunisations.onsetLabel')} required error={form.errors.onset_on} className={styles.wide}>
          {(c) => <DateInput {...c} className={styles.fullWidth} min={r.occurred_on} max={today()} value={v.onset_on} onChange={(d) => form.set('onset_on', d)} />}
        </Field>
        <Field label={t('immunisations.onsetTimeLabel')} help={t('immunisations.onsetTimeHint')} error={form.errors.onset_time} className={styles.wide}>
          {(c) => <Input {...c} maxLength={5} placeholder="14:30" autoComplete="off" value={v.onset_time} onChange={(e) => form.set('onset_time', e.target.value)} />}
        </Field>
      </div>
      <RadioGroup<Severity> legend={t('immunisations.severityLabel')} look="button" value={v.severity} onChange={(s) => form.set('severity', s)} options={(['mild', 'moderate', 'severe'] as const).map((s) => ({ value: s, label: t(`immunisations.severityOption.${s}`) }))} />
      <div className={styles.checkbox}>
        <Checkbox checked={v.serious} onChange={(x) => form.set('serious', x)}>
          {t('immunisations.seriousLabel')}
        </Checkbox>
      </div>
      {v.reaction === 'anaphylaxis' && (
        <div className={styles.checkbox}>
          <Checkbox checked={v.add_allergy} onChange={(x) => form.set('add_allergy', x)}>
            {t('immunisations.addAllergy', { vaccine: r.vaccine_name || r.vaccine })}
          </Checkbox>
        </div>
      )}
      {v.serious && !v.reported_on && (
        <div className={styles.notice} data-testid="report-prompt">
          <Alert type="warning" role="alert" title={t('immunisations.reportSerious')} description={t('immunisations.reportSeriousHow')} />
        </div>
      )}
      <Field label={t('immunisations.outcomeLabel')} error={form.errors.outcome}>
        {(c) => <Select {...c} value={v.outcome} onChange={(x) => form.set('outcome', x)} options={[{ value: '' as const, label: '' }, ...OUTCOMES.map((x) => ({ value: x, label: t(`immunisations.outcome.${x}`) }))]} />}
      </Field>
      <Field label={t('immunisations.description')} required={v.reaction === 'other'} error={form.errors.description}>
        {(c) => <TextArea {...c} rows={3} maxLength={2000} value={v.description} onChange={(e) => form.set('description', e.target.value)} />}
      </Field>
      <div className={styles.fieldRow}>
        <Field label={t('immunisations.reportedToLabel')} help={t('immunisations.reportedToHint')} error={form.errors.reported_to} className={styles.wide}>
          {(c) => <Input {...c} maxLength={200} value={v.reported_to} onChange={(e) => form.set('reported_to', e.target.value)} />}
        </Field>
        <Field label={t('immunisations.reportedOnLabel')} error={form.errors.reported_on} className={styles.wide}>
          {(c) => <DateInput {...c} className={styles.fullWidth} clearable min={v.onset_on || r.occurred_on} max={today()} value={v.reported_on} onChange={(d) => form.set('reported_on', d)} />}
        </Field>
      </div>
    </ImmunisationDialog>
  )
}

/** Marks a reaction entered in error (recorded against the wrong dose or child), for a reason; one changed meanwhile is read again. */
export function ReactionInErrorDialog({ patientId, x, onClose }: { patientId: number; x: Reaction; onClose(): void }) {
  const { t } = useTranslation()
  const mark = useMarkReactionInError(patientId)
  const what = t(`immunisations.reaction.${x.reaction}`, { defaultValue: x.reaction })
  return (
    <ReasonDialog
      title={t('immunisations.inErrorTitle', { what, date: formatDay(x.onset_on) })}
      hint={t('immunisations.reactionInErrorHint')}
      busy={mark.isPending}
      mark={(reason) => mark.mutateAsync({ x, reason })}
      onClose={onClose}
    />
  )
}

/**
 * What was learnt of a reaction after it was saved: the day it was reported and to whom (a
 * serious one within 24 hours, often after it was recorded), and how it ended. A report's day or
 * an outcome once said is changed, never cleared (the server's rule); one changed meanwhile (409)
 * is read again and said so.
 */
export function FollowUpDialog({ patientId, x, onClose }: { patientId: number; x: Reaction; onClose(): void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const save = useFollowUpReaction(patientId)
  const form = useForm(
    { reported_on: x.reported_on, reported_to: x.reported_to, outcome: x.outcome },
    {
      reported_on: (v) => (x.reported_on && !v ? t('immunisations.reportDayKept') : v && v < x.onset_on ? t('immunisations.reportedBeforeOnset') : undefined),
      outcome: (v) => (x.outcome && !v ? t('immunisations.outcomeKept') : undefined),
    },
  )
  const v = form.values
  const submit = useVersionedSubmit(form.fail, onClose, async () => {
    await save.mutateAsync({ x, f: { ...v, reported_to: v.reported_to.trim() } })
    toast.success(t('immunisations.reactionSaved'))
  })
  const what = t(`immunisations.reaction.${x.reaction}`, { defaultValue: x.reaction })
  return (
    <ImmunisationDialog title={t('immunisations.followUpTitle', { what, date: formatDay(x.onset_on) })} okText={t('immunisations.save')} busy={save.isPending} form={form} onSubmit={submit} onClose={onClose}>
      {x.serious && !v.reported_on && (
        <div className={styles.notice}>
          <Alert type="warning" title={t('immunisations.reportSerious')} description={t('immunisations.reportSeriousHow')} />
        </div>
      )}
      <div className={styles.fieldRow}>
        <Field label={t('immunisations.reportedOnLabel')} error={form.errors.reported_on} className={styles.wide}>
          {(c) => <DateInput {...c} className={styles.fullWidth} clearable={!x.reported_on} min={x.onset_on} max={today()} value={v.reported_on} onChange={(d) => form.set('reported_on', d)} />}
        </Field>
        <Field label={t('immunisations.reportedToLabel')} help={t('immunisations.reportedToHint')} error={form.errors.reported_to} className={styles.wide}>
          {(c) => <Input {...c} maxLength={200} value={v.reported_to} onChange={(e) => form.set('reported_to', e.target.value)} />}
        </Field>
      </div>
      <Field label={t('immunisations.outcomeLabel')} error={form.errors.outcome}>
        {(c) => <Select {...c} value={v.outcome} onChange={(o) => form.set('outcome', o)} options={[...(x.outcome ? [] : [{ value: '' as const, label: '' }]), ...OUTCOMES.map((o) => ({ value: o, label: t(`immunisations.outcome.${o}`) }))]} />}
      </Field>
    </ImmunisationDialog>
  )
}
