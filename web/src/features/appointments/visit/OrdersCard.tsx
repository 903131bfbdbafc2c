import { PlusOutlined } from '@ant-design/icons'
import { Alert, Button, Card, Col, Form, Input, Row, Select, Typography } from 'antd'
import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import type { LabTest, Order } from '../api/types'
import { RemoveButton } from './RemoveButton'
import { testKindLabel } from '../../../lib/labels'
import { usePicks } from '../../../lib/charting'
import { StarButton } from '../../../components/StarButton'

/**
 * Laboratory, imaging and functional orders, from the catalogue (tests: undefined for whoever may not
 * order, who still reads the ordered ones by name). Inside the visit's form.
 */
export const OrdersCard = memo(function OrdersCard({ disabled, tests, ordered, onChange }: { disabled: boolean; tests: LabTest[] | undefined; ordered: Order[]; onChange: () => void }) {
  const { t } = useTranslation()
  const form = Form.useFormInstance()
  const picks = usePicks(!!tests)
  // The doctor's favourites and most used first, then every test by kind.
  const first = (picks.data?.tests ?? []).filter((p) => tests?.some((x) => x.code === p.ref))
  const options = tests
    ? [
        ...(first.length > 0 ? [{ label: t('favourites.group'), title: 'favourites', options: first.map((p) => ({ value: p.ref, label: p.label })) }] : []),
        ...(['lab', 'imaging', 'functional'] as const).map((kind) => ({
          label: t(testKindLabel[kind]),
          title: kind,
          options: tests.filter((x) => x.kind === kind && !first.some((p) => p.ref === x.code)).map((x) => ({ value: x.code, label: x.label })),
        })),
      ]
    : [{ label: t('visit.sections.orders'), title: 'ordered', options: ordered.map((o) => ({ value: o.code, label: o.label || o.code })) }]
  const starred = new Set(first.filter((p) => p.favourite).map((p) => p.ref))
  const labelOf = (code: string) => tests?.find((x) => x.code === code)?.label ?? code
  // A panel ordered with a test it already reports (CMP with BMP): said where it is typed, as the
  // desk is told on the bill, so the member is not drawn and charged twice by accident.
  const watched = Form.useWatch('orders', form) as { code?: string }[] | undefined
  const codes = new Set((watched ?? []).map((o) => o.code).filter(Boolean))
  const overlaps = (tests ?? []).filter((p) => codes.has(p.code)).flatMap((p) => (p.includes ?? []).filter((m) => codes.has(m)).map((m) => ({ panel: p.code, member: m })))
  return (
    <Card title={t('visit.sections.orders')} style={{ marginBottom: 16 }} id="visit-orders" tabIndex={-1}>
      <Form.List name="orders">
        {(fields, { add, remove }) => (
          <>
            {fields.length === 0 && <Typography.Paragraph type="secondary">{t('visit.noOrders')}</Typography.Paragraph>}
            {fields.map((f) => (
              <Row gutter={8} key={f.key}>
                <Col xs={24} md={10}>
                  <Form.Item name={[f.name, 'code']}>
                    <Select
                      showSearch={{ optionFilterProp: 'label' }}
                      options={options}
                      optionRender={(o) => (starred.has(String(o.value)) ? `★ ${String(o.label)}` : o.label)} placeholder={t('visit.testPlaceholder')} aria-label={t('visit.test')} disabled={disabled} />
                  </Form.Item>
                </Col>
                <Col xs={20} md={11}>
                  <Form.Item name={[f.name, 'note']}>
                    <Input placeholder={t('visit.orderNote')} aria-label={t('visit.orderNote')} maxLength={300} disabled={disabled} />
                  </Form.Item>
                </Col>
                <Col xs={4} md={3} style={{ textAlign: 'end', whiteSpace: 'nowrap' }}>
                  <Form.Item noStyle shouldUpdate>
                    {() => {
                      const code = form.getFieldValue(['orders', f.name, 'code']) as string | undefined
                      return code && tests && !disabled ? <StarButton kind="test" refId={code} name={labelOf(code)} /> : null
                    }}
                  </Form.Item>
                  {!disabled && <RemoveButton label={t('visit.removeOrder')} onClick={() => (remove(f.name), onChange())} />}
                </Col>
              </Row>
            ))}
            {!disabled &&
              overlaps.map((o) => (
                <Alert
                  key={`${o.panel}-${o.member}`}
                  type="warning"
                  showIcon
                  style={{ marginBottom: 12 }}
                  data-testid="order-overlap"
                  title={t('visit.orderIncluded', { member: labelOf(o.member), panel: labelOf(o.panel) })}
                />
              ))}
            {!disabled && (
              <Button data-action="add-test" icon={<PlusOutlined aria-hidden />} onClick={() => add({ code: undefined, note: '' })}>
                {t('visit.addOrder')}
              </Button>
            )}
          </>
        )}
      </Form.List>
    </Card>
  )
})
