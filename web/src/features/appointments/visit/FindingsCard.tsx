import { memo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { SnippetTextArea } from '../../../components/snippets/SnippetTextArea'
import { SECTION_OF_FIELD } from '../../../lib/charting'
import { Field } from '../../../light/Field'
import { useDraftError, useDraftValue } from './draft'
import { Section } from './Section'
import type { TextAids } from './textAids'
import { useVisitDraft } from './VisitFormProvider'

/** The card of the findings: the complaint and history, and the examination. */
export function FindingsCard({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <Section id="visit-findings" title={t('visit.sections.findings')}>
      {children}
    </Section>
  )
}

type Finding = 'chief_complaint' | 'present_illness' | 'examination'

/** Findings' fields (chief complaint, history of present illness, examination), each expanding the doctor's snippets. Inside the visit's form. */
export const FindingFields = memo(function FindingFields({ fields, disabled, aids }: { fields: readonly Finding[]; disabled: boolean; aids: TextAids }) {
  return fields.map((field) => <FindingField key={field} field={field} disabled={disabled} aids={aids} />)
})

/** One finding's text, following its own value: a keystroke renders this field alone. */
const FindingField = memo(function FindingField({ field, disabled, aids }: { field: Finding; disabled: boolean; aids: TextAids }) {
  const { t } = useTranslation()
  const draft = useVisitDraft()
  const value = useDraftValue<string | undefined>(draft, field)
  const error = useDraftError(draft, field)
  return (
    <Field label={t(`visit.fields.${field}`)} help={aids.copied(field)} error={error}>
      {(c) => (
        <SnippetTextArea
          id={c.id}
          aria-describedby={c['aria-describedby']}
          value={value ?? ''}
          onChange={(v) => draft.set(field, v)}
          section={SECTION_OF_FIELD[field]}
          snippets={aids.snippets}
          values={aids.values}
          minRows={field === 'chief_complaint' ? 1 : 2}
          maxRows={field === 'chief_complaint' ? 6 : 10}
          maxLength={4000}
          disabled={disabled}
        />
      )}
    </Field>
  )
})
