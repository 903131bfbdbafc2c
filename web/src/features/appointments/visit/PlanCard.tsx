import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import dayjs from 'dayjs'
import { SnippetTextArea } from '../../../components/snippets/SnippetTextArea'
import { appointmentStatusLabel } from '../../../lib/labels'
import { formatDayTime } from '../../../lib/time'
import { Alert } from '../../../light/Alert'
import { DateInput } from '../../../light/DateInput'
import { Field } from '../../../light/Field'
import type { Visit } from '../api/types'
import { useDraftError, useDraftValue } from './draft'
import { Section } from './Section'
import type { TextAids } from './textAids'
import { useVisitDraft } from './VisitFormProvider'

/** The plan, and the follow-up date that books a follow-up (after the visit's day). Inside the visit's form. */
export const PlanCard = memo(function PlanCard({ disabled, day, followUp, aids }: { disabled: boolean; day: string; followUp: Visit['follow_up']; aids: TextAids }) {
  const { t } = useTranslation()
  return (
    <Section id="visit-plan" title={t('visit.sections.plan')}>
      <PlanField disabled={disabled} aids={aids} />
      <FollowUpField disabled={disabled} day={day} />
      {followUp && <Alert type="success" title={t('visit.followUpBooked', { time: formatDayTime(followUp.starts_at), status: t(appointmentStatusLabel[followUp.status]) })} />}
    </Section>
  )
})

/** The plan's text, following its own value. */
function PlanField({ disabled, aids }: { disabled: boolean; aids: TextAids }) {
  const { t } = useTranslation()
  const draft = useVisitDraft()
  const plan = useDraftValue<string | undefined>(draft, 'plan')
  const error = useDraftError(draft, 'plan')
  return (
    <Field label={t('visit.fields.plan')} help={aids.copied('plan')} error={error}>
      {(c) => (
        <SnippetTextArea id={c.id} aria-describedby={c['aria-describedby']} value={plan ?? ''} onChange={(v) => draft.set('plan', v)} section="plan" snippets={aids.snippets} values={aids.values} maxLength={4000} disabled={disabled} />
      )}
    </Field>
  )
}

/** The follow-up's day, after the visit's: the day after it is the first offered; emptied, none is booked. */
function FollowUpField({ disabled, day }: { disabled: boolean; day: string }) {
  const { t } = useTranslation()
  const draft = useVisitDraft()
  const value = useDraftValue<string | undefined>(draft, 'follow_up_date')
  const error = useDraftError(draft, 'follow_up_date')
  return (
    <Field label={t('visit.fields.follow_up_date')} help={t('visit.followUpHelp')} error={error}>
      {(c) => <DateInput {...c} clearable min={dayjs(day).add(1, 'day').format('YYYY-MM-DD')} disabled={disabled} value={value ?? ''} onChange={(d) => draft.set('follow_up_date', d)} />}
    </Field>
  )
}
