import { Card, Col, Form, Input, Row, Tag, Typography } from 'antd'
import { NumberInput } from '../../../components/NumberInput'
import { formatDay } from '../../../lib/time'
import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import type { Vitals } from '../api/types'
import { bmi, flagOf, VITAL_FIELDS, type VitalBand, type VitalFlag } from '../vitals'

/**
 * The vitals, with the BMI computed as they are typed. Inside the visit's form. A saved value
 * shows the server's flag for the patient's age (flags); a value being typed is flagged at
 * once from the same bands, sent with the visit (bands), as the server will flag it.
 */
export const VitalsCard = memo(function VitalsCard({ disabled, bands, flags, saved }: { disabled: boolean; bands: VitalBand[]; flags: Record<string, VitalFlag>; saved: Partial<Vitals> }) {
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
            <Form.Item name={['vitals', f.key]} label={t(`visit.vitals.${f.key}`)} extra={<Flag flag={watched?.[f.key] === saved[f.key] ? flags[f.key] : flagOf(bands, f.key, watched?.[f.key])} />}>
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
})

const MARKS: Record<string, string> = { L: '↓', H: '↑', LL: '↓↓', HH: '↑↑' }
const SIGNS: Record<string, string> = { '<': '<', '>': '>', '>=': '≥' }

/** A vital outside the usual range for the patient's age band, said in words and arrows with the limit crossed, never by colour alone. */
function Flag({ flag }: { flag?: VitalFlag }) {
  const { t, i18n } = useTranslation()
  if (!flag || !MARKS[flag.flag]) return null
  const limit = flag.when && flag.limit != null ? ` · ${SIGNS[flag.when]} ${new Intl.NumberFormat(i18n.language).format(flag.limit)}` : ''
  return (
    <Typography.Text strong type="danger" data-testid="vital-flag" data-flag={flag.flag} title={flag.source}>
      {`${MARKS[flag.flag]} ${t(`visit.flag.${flag.flag}`, { ages: flag.ages })}${limit}`}
    </Typography.Text>
  )
}
