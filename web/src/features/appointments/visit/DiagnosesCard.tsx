import { PlusOutlined } from '@ant-design/icons'
import { Button, Card, Checkbox, Col, Form, Input, Row, Typography } from 'antd'
import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import { StarButton } from '../../../components/StarButton'
import { CodeSelect } from './CodeSelect'
import { RemoveButton } from './RemoveButton'

/**
 * The visit's diagnoses: each a code from the list or free text, one primary. Inside the
 * visit's form; a removal is a change like any other (onChange).
 */
export const DiagnosesCard = memo(function DiagnosesCard({ disabled, labels, onChange }: { disabled: boolean; labels: Record<string, string>; onChange: () => void }) {
  const { t } = useTranslation()
  const form = Form.useFormInstance()
  return (
    <Card title={t('visit.sections.diagnoses')} style={{ marginBottom: 16 }} id="visit-diagnoses" tabIndex={-1}>
      <Form.List name="diagnoses">
        {(fields, { add, remove }) => (
          <>
            {fields.length === 0 && <Typography.Paragraph type="secondary">{t('visit.noDiagnoses')}</Typography.Paragraph>}
            {fields.map((f, i) => (
              <Row gutter={8} key={f.key} align="top">
                <Col xs={24} md={10}>
                  <Form.Item name={[f.name, 'code']} label={i === 0 ? t('visit.fields.code') : undefined}>
                    <CodeSelect disabled={disabled} initialLabel={labels[form.getFieldValue(['diagnoses', f.name, 'code'])]} />
                  </Form.Item>
                </Col>
                <Col xs={24} md={8}>
                  <Form.Item name={[f.name, 'text']} label={i === 0 ? t('visit.fields.text') : undefined}>
                    <Input placeholder={t('visit.textPlaceholder')} aria-label={t('visit.fields.text')} maxLength={300} disabled={disabled} />
                  </Form.Item>
                </Col>
                <Col xs={16} md={4} style={{ paddingTop: i === 0 ? 30 : 4 }}>
                  <Form.Item name={[f.name, 'primary']} valuePropName="checked" noStyle>
                    <Checkbox
                      disabled={disabled}
                      onChange={(e) => {
                        if (!e.target.checked) return
                        // One primary diagnosis: choosing one clears the others.
                        fields.forEach((o) => o.name !== f.name && form.setFieldValue(['diagnoses', o.name, 'primary'], false))
                      }}
                    >
                      {t('visit.fields.primary')}
                    </Checkbox>
                  </Form.Item>
                </Col>
                <Col xs={8} md={2} style={{ paddingTop: i === 0 ? 30 : 0, textAlign: 'end', whiteSpace: 'nowrap' }}>
                  <Form.Item noStyle shouldUpdate>
                    {() => {
                      const code = form.getFieldValue(['diagnoses', f.name, 'code']) as string | undefined
                      return code && !disabled ? <StarButton kind="code" refId={code} name={code} /> : null
                    }}
                  </Form.Item>
                  {!disabled && <RemoveButton label={t('visit.removeDiagnosis')} onClick={() => (remove(f.name), onChange())} />}
                </Col>
              </Row>
            ))}
            {!disabled && (
              <Button data-action="add-diagnosis" icon={<PlusOutlined aria-hidden />} onClick={() => add({ code: '', text: '', primary: fields.length === 0 })}>
                {t('visit.addDiagnosis')}
              </Button>
            )}
          </>
        )}
      </Form.List>
    </Card>
  )
})
