import { Card, Form } from 'antd'
import { useTranslation } from 'react-i18next'
import { SnippetTextArea } from '../../../components/snippets/SnippetTextArea'
import { SECTION_OF_FIELD } from '../../../lib/charting'
import type { TextAids } from './textAids'

/** Chief complaint, history of present illness, examination, each expanding the doctor's snippets. Inside the visit's form. */
export function FindingsCard({ disabled, aids, extra }: { disabled: boolean; aids: TextAids; extra?: React.ReactNode }) {
  const { t } = useTranslation()
  return (
    <Card title={t('visit.sections.findings')} style={{ marginBottom: 16 }} extra={extra} id="visit-findings" tabIndex={-1}>
      {(['chief_complaint', 'present_illness', 'examination'] as const).map((field) => (
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
      ))}
    </Card>
  )
}
