import { Card, Form } from 'antd'
import { memo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { SnippetTextArea } from '../../../components/snippets/SnippetTextArea'
import { SECTION_OF_FIELD } from '../../../lib/charting'
import type { TextAids } from './textAids'

/** The card of the findings: the complaint and history, and the examination. */
export function FindingsCard({ children }: { children: ReactNode }) {
  const { t } = useTranslation()
  return (
    <Card title={t('visit.sections.findings')} style={{ marginBottom: 16 }} id="visit-findings" tabIndex={-1}>
      {children}
    </Card>
  )
}

/** Findings' fields (chief complaint, history of present illness, examination), each expanding the doctor's snippets. Inside the visit's form. */
export const FindingFields = memo(function FindingFields({ fields, disabled, aids }: { fields: readonly ('chief_complaint' | 'present_illness' | 'examination')[]; disabled: boolean; aids: TextAids }) {
  const { t } = useTranslation()
  return fields.map((field) => (
    <Form.Item key={field} name={field} label={t(`visit.fields.${field}`)} extra={aids.copied(field)}>
      <SnippetTextArea
        section={SECTION_OF_FIELD[field]}
        snippets={aids.snippets}
        values={aids.values}
        minRows={field === 'chief_complaint' ? 1 : 2}
        maxRows={field === 'chief_complaint' ? 6 : 10}
        maxLength={4000}
        disabled={disabled}
      />
    </Form.Item>
  ))
})
