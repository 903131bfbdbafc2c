import { Card, Col, Form, Input, Row, Tag, Typography } from 'antd'
import { NumberInput } from '../../../components/NumberInput'
import { formatDay } from '../../../lib/time'
import { useTranslation } from 'react-i18next'
import type { Vitals } from '../api/types'
import { bmi, VITAL_FIELDS, vitalFlag } from '../vitals'

/** The vitals, with the BMI computed as they are typed. Inside the visit's form. */
export function VitalsCard({ disabled }: { disabled: boolean }) {
  const { t } = useTranslation()
  const form = Form.useFormInstance()
  const watched = Form.useWatch('vitals', form) as Partial<Vitals> | undefined
  const copiedFrom = Form.useWatch('vitals_copied_from', form) as string | undefined
  const currentBmi = bmi({ weight: watched?.weight ?? null, height: watched?.height ?? null })
  return (
    <Card
      title={t('visit.sections.vitals')}
      style={{ marginBottom: 16 }}
      id="visit-vitals"
      tabIndex={-1}
      extra={copiedFrom ? <Tag data-testid="vitals-copied">{t('copyForward.copiedOn', { date: formatDay(copiedFrom) })}</Tag> : undefined}
    >
      <Form.Item name="vitals_copied_from" hidden>
        <Input />
      </Form.Item>
      <Row gutter={12}>
        {VITAL_FIELDS.map((f) => (
          <Col xs={12} md={6} key={f.key}>
            <Form.Item name={['vitals', f.key]} label={t(`visit.vitals.${f.key}`)} extra={<Flag flag={vitalFlag(f.key, watched?.[f.key])} />}>
              <NumberInput unit={t(`visit.units.${f.unit}`)} disabled={disabled} />
            </Form.Item>
          </Col>
        ))}
        <Col xs={12} md={6}>
          <Form.Item label={t('visit.vitals.bmi')}>
            <Typography.Text strong aria-label={t('visit.vitals.bmi')} style={{ lineHeight: '32px' }}>
              {currentBmi ?? '—'} {currentBmi !== null && <Typography.Text type="secondary">{t('visit.units.bmi')}</Typography.Text>}
            </Typography.Text>
          </Form.Item>
        </Col>
      </Row>
    </Card>
  )
}

/** A vital outside the usual adult range, said in words and an arrow, never by colour alone. */
function Flag({ flag }: { flag?: 'low' | 'high' }) {
  const { t } = useTranslation()
  if (!flag) return null
  return (
    <Typography.Text strong type="danger" data-testid="vital-flag">
      {flag === 'high' ? `↑ ${t('visit.flag.high')}` : `↓ ${t('visit.flag.low')}`}
    </Typography.Text>
  )
}
