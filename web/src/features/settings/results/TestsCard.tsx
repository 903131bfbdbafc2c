// The tests and panels: each test's LOINC code, expected turnaround (which makes an order
// overdue) and the analytes it reports, in report order.
import { Alert, App, AutoComplete, Card, Form, Input, InputNumber, Modal, Select, Table, Button, Tag } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../../components/ScrollRegion'
import { ApiError } from '../../../lib/api'
import { usePriceListCodes } from '../api/listPriceListCodes'
import { useTestDefinitions } from '../api/listTestDefinitions'
import type { AnalyteEdit, TestDefinition } from '../api/resultsCatalogue'
import { useSaveTestDefinition } from '../api/saveTestDefinition'

export function TestsCard({ analytes }: { analytes: AnalyteEdit[] }) {
  const { t, i18n } = useTranslation()
  const defs = useTestDefinitions()
  const [editing, setEditing] = useState<TestDefinition | null>(null)
  const lang = i18n.language as 'en' | 'ru' | 'zh' | 'vi'
  const name = (code: string) => {
    const a = analytes.find((x) => x.code === code)
    return a ? a.labels[lang] || a.labels.en : code
  }
  return (
    <Card title={t('catalogueEditor.testsTitle')}>
      <ScrollRegion label={t('catalogueEditor.testsTitle')}>
        <Table<TestDefinition>
          style={{ minWidth: 800 }}
          rowKey="code"
          size="small"
          loading={defs.isLoading}
          dataSource={defs.data ?? []}
          pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
          columns={[
            {
              title: t('catalogueEditor.test'),
              key: 'label',
              render: (_, d) => (
                <Button type="link" style={{ padding: 0 }} onClick={() => setEditing(d)}>
                  {d.label}
                </Button>
              ),
            },
            { title: t('catalogueEditor.code'), dataIndex: 'code' },
            { title: 'LOINC', dataIndex: 'loinc', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v}</span> },
            { title: t('catalogueEditor.turnaround'), key: 'tat', render: (_, d) => t('catalogueEditor.hours', { count: d.turnaround_hours }) },
            {
              title: t('catalogueEditor.service'),
              key: 'service',
              render: (_, d) => (d.service_code ? <span style={{ whiteSpace: 'nowrap' }}>{d.service_code}</span> : <Tag color="orange">{t('catalogueEditor.notCharged')}</Tag>),
            },
            { title: t('catalogueEditor.reports'), key: 'analytes', render: (_, d) => d.analytes.map(name).join(', ') },
          ]}
        />
      </ScrollRegion>
      {editing && <TestDialog key={editing.code} def={editing} analytes={analytes} onClose={() => setEditing(null)} />}
    </Card>
  )
}

function TestDialog({ def, analytes, onClose }: { def: TestDefinition; analytes: AnalyteEdit[]; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const saveTestDefinition = useSaveTestDefinition()
  const [form] = Form.useForm<TestDefinition>()
  const [problem, setProblem] = useState('')
  const lang = i18n.language as 'en' | 'ru' | 'zh' | 'vi'
  const services = usePriceListCodes()
  const save = async () => {
    setProblem('')
    const v = form.getFieldsValue(true) as TestDefinition
    try {
      await saveTestDefinition({ ...def, ...v })
      void message.success(t('catalogueEditor.saved'))
      onClose()
    } catch (e) {
      if (!(e instanceof ApiError)) throw e
      form.setFields(Object.entries(e.fields).map(([n, errors]) => ({ name: n.split('.')[0] as never, errors })))
      setProblem(e.display)
    }
  }
  return (
    <Modal open title={def.label} okText={t('catalogueEditor.save')} cancelText={t('results.cancel')} onOk={() => void save()} onCancel={onClose} okButtonProps={{ 'data-testid': 'save-test' } as never}>
      {problem && <Alert type="error" showIcon role="alert" title={problem} style={{ marginBottom: 12 }} />}
      <Form<TestDefinition> form={form} layout="vertical" initialValues={def}>
        <Form.Item name="loinc" label="LOINC">
          <Input maxLength={10} />
        </Form.Item>
        <Form.Item name="turnaround_hours" label={t('catalogueEditor.turnaroundHours')} extra={t('catalogueEditor.turnaroundHint')}>
          <InputNumber controls={false} min={1} max={2160} style={{ width: 160 }} />
        </Form.Item>
        <Form.Item name="service_code" label={t('catalogueEditor.service')} extra={t('catalogueEditor.serviceHint')}>
          <AutoComplete
            allowClear
            maxLength={40}
            style={{ maxWidth: 360 }}
            options={(services.data ?? []).filter((s) => s.active).map((s) => ({ value: s.code, label: `${s.code} — ${s.name}` }))}
            filterOption={(input, o) => String(o?.label ?? '').toLowerCase().includes(input.toLowerCase())}
          />
        </Form.Item>
        <Form.Item name="analytes" label={t('catalogueEditor.reports')} extra={t('catalogueEditor.reportsHint')}>
          <Select mode="multiple" showSearch={{ optionFilterProp: 'label' }} options={analytes.map((a) => ({ value: a.code, label: `${a.labels[lang] || a.labels.en} (${a.code})` }))} />
        </Form.Item>
      </Form>
    </Modal>
  )
}
