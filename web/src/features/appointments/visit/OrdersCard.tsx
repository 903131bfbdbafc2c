import { PlusOutlined } from '@ant-design/icons'
import { Button, Card, Col, Form, Input, Row, Select, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import type { LabTest, Order } from '../api/types'
import { RemoveButton } from './RemoveButton'
import { testKindLabel } from '../../../lib/labels'

/**
 * Laboratory, imaging and functional orders, from the catalogue (tests: undefined for whoever may not
 * order, who still reads the ordered ones by name). Inside the visit's form.
 */
export function OrdersCard({ disabled, tests, ordered, onChange }: { disabled: boolean; tests: LabTest[] | undefined; ordered: Order[]; onChange: () => void }) {
  const { t } = useTranslation()
  const options = tests
    ? (['lab', 'imaging', 'functional'] as const).map((kind) => ({
        label: t(testKindLabel[kind]),
        title: kind,
        options: tests.filter((x) => x.kind === kind).map((x) => ({ value: x.code, label: x.label })),
      }))
    : [{ label: t('visit.sections.orders'), title: 'ordered', options: ordered.map((o) => ({ value: o.code, label: o.label || o.code })) }]
  return (
    <Card title={t('visit.sections.orders')} style={{ marginBottom: 16 }}>
      <Form.List name="orders">
        {(fields, { add, remove }) => (
          <>
            {fields.length === 0 && <Typography.Paragraph type="secondary">{t('visit.noOrders')}</Typography.Paragraph>}
            {fields.map((f) => (
              <Row gutter={8} key={f.key}>
                <Col xs={24} md={11}>
                  <Form.Item name={[f.name, 'code']}>
                    <Select showSearch={{ optionFilterProp: 'label' }} options={options} placeholder={t('visit.testPlaceholder')} aria-label={t('visit.test')} disabled={disabled} />
                  </Form.Item>
                </Col>
                <Col xs={20} md={11}>
                  <Form.Item name={[f.name, 'note']}>
                    <Input placeholder={t('visit.orderNote')} aria-label={t('visit.orderNote')} maxLength={300} disabled={disabled} />
                  </Form.Item>
                </Col>
                <Col xs={4} md={2} style={{ textAlign: 'end' }}>
                  {!disabled && <RemoveButton label={t('visit.removeOrder')} onClick={() => (remove(f.name), onChange())} />}
                </Col>
              </Row>
            ))}
            {!disabled && (
              <Button icon={<PlusOutlined aria-hidden />} onClick={() => add({ code: undefined, note: '' })}>
                {t('visit.addOrder')}
              </Button>
            )}
          </>
        )}
      </Form.List>
    </Card>
  )
}
