import { DownloadOutlined, PlusOutlined, UploadOutlined } from '@ant-design/icons'
import { App, Button, Card, Flex, Form, Input, Modal, Select, Switch, Table, Tag, Typography, Upload } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ImportReportAlert } from '../../components/ImportReportAlert'
import { focusFirstField } from '../../components/focusFirstField'
import { showFormErrors } from '../../lib/formErrors'
import { decimalSign, formatMoney, toMajor } from '../../lib/money'
import { readAmount } from '../../lib/number'
import { FieldNumberNote } from '../../components/FieldNumberNote'
import type { ImportReport } from '../../lib/types'
import { FeeSettingsCard } from './FeeSettingsCard'
import { useFeeSettings } from './api/feeSettings'
import { importServices } from './api/importServices'
import { installStarter } from './api/installStarter'
import { useRefreshServices, useServices } from './api/listServices'
import { saveService } from './api/saveService'
import { CATEGORIES, type Service } from './api/types'

interface ServiceForm {
  code: string
  name: string
  category: string
  price: string
  active: boolean
}

/** The price list: search, add, change, withdraw, import and export as CSV; and the fee settings. */
export default function ServicesPage() {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const { data, isFetching } = useServices()
  const { data: settings } = useFeeSettings()
  const [q, setQ] = useState('')
  const [editing, setEditing] = useState<Partial<Service> | null>(null)
  const [report, setReport] = useState<ImportReport>()
  const [busy, setBusy] = useState(false)
  const [form] = Form.useForm<ServiceForm>()
  const units = settings?.minor_units ?? 2
  const currency = settings?.currency ?? 'USD'
  const refresh = useRefreshServices()

  const shown = useMemo(() => {
    const words = q.trim().toLocaleLowerCase()
    return (data?.data ?? []).filter((s) => !words || s.code.toLocaleLowerCase().includes(words) || s.name.toLocaleLowerCase().includes(words))
  }, [data, q])

  const open = (s: Partial<Service>) => {
    form.resetFields()
    form.setFieldsValue({ code: s.code ?? '', name: s.name ?? '', category: s.category ?? 'consultation', price: s.price === undefined ? '' : toMajor(s.price, units).replace('.', decimalSign(i18n.language)), active: s.active ?? true })
    setEditing(s)
  }

  const save = async (v: ServiceForm) => {
    const read = readAmount(v.price, i18n.language, units)
    const price = read.minor
    if (price === undefined) {
      const example = toMajor((35050 * 10 ** units) / 100, units).replace('.', decimalSign(i18n.language))
      form.setFields([{ name: 'price', errors: [read.problem === 'number.thousands' ? t(read.problem) : t('fees.badPrice', { example })] }])
      return
    }
    try {
      await saveService({ code: v.code, name: v.name, category: v.category as Service['category'], price, active: v.active }, editing?.id ? { id: editing.id, version: editing.version ?? 0 } : undefined)
      message.success(t('fees.saved'))
      setEditing(null)
      refresh()
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }

  const run = async (job: () => Promise<void>) => {
    setBusy(true)
    try {
      await job()
      refresh()
    } catch {
      // the app's error toast has said why
    } finally {
      setBusy(false)
    }
  }

  return (
    <Flex vertical gap={16}>
      <Card title={t('fees.title')}>
        <Flex gap={8} wrap justify="space-between" style={{ marginBottom: 12 }}>
          <Input.Search allowClear placeholder={t('fees.search')} aria-label={t('fees.search')} onChange={(e) => setQ(e.target.value)} style={{ maxWidth: 360 }} />
          <Flex gap={8} wrap>
            {data && data.data.length === 0 && (
              <Button loading={busy} onClick={() => void run(async () => void message.success(t('fees.starterAdded', { count: (await installStarter()).added })))}>
                {t('fees.starter')}
              </Button>
            )}
            <Upload accept=".csv,text/csv" showUploadList={false} beforeUpload={(f) => (void run(async () => setReport(await importServices(f))), false)}>
              <Button icon={<UploadOutlined aria-hidden />} loading={busy}>
                {t('fees.import')}
              </Button>
            </Upload>
            <Button icon={<DownloadOutlined aria-hidden />} href="/api/services/export" download data-testid="services-export">
              {t('fees.export')}
            </Button>
            <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => open({})}>
              {t('fees.add')}
            </Button>
          </Flex>
        </Flex>
        {report && <ImportReportAlert report={report} onClose={() => setReport(undefined)} />}
        <Table<Service>
          rowKey="id"
          size="small"
          loading={isFetching}
          dataSource={shown}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          // The library draws an empty table's text in its disabled grey, below AA contrast.
          locale={{ emptyText: <Typography.Text type="secondary">{t('fees.empty')}</Typography.Text> }}
          onRow={(s) => ({ onClick: () => open(s), style: { cursor: 'pointer' } })}
          columns={[
            { key: 'code', dataIndex: 'code', title: t('fees.fields.code') },
            {
              key: 'name',
              dataIndex: 'name',
              title: t('fees.fields.name'),
              // The name is a button, so the keyboard reaches each entry.
              render: (name: string) => (
                <Button type="link" style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}>
                  {name}
                </Button>
              ),
            },
            // On a phone: code, name and price; the rest from a tablet's width up.
            { key: 'category', dataIndex: 'category', title: t('fees.fields.category'), responsive: ['md'], render: (c: string) => t(`fees.categories.${c}`) },
            { key: 'price', dataIndex: 'price', title: t('fees.fields.price'), align: 'end', render: (p: number) => formatMoney(p, currency, units, i18n.language) },
            { key: 'active', title: t('fees.fields.active'), responsive: ['md'], render: (_: unknown, s: Service) => (s.active ? <Tag color="green">{t('medicines.active')}</Tag> : <Tag>{t('medicines.withdrawn')}</Tag>) },
          ]}
        />
      </Card>
      {settings && data && <FeeSettingsCard settings={settings} services={data.data} />}
      <Modal afterOpenChange={focusFirstField} open={!!editing} title={editing?.id ? t('fees.edit') : t('fees.add')} onCancel={() => setEditing(null)} onOk={() => form.submit()} okText={t('fees.save')} destroyOnHidden forceRender>
        <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
          <Form.Item name="code" label={t('fees.fields.code')} extra={t('fees.codeHint')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
            <Input maxLength={20} />
          </Form.Item>
          <Form.Item name="name" label={t('fees.fields.name')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]}>
            <Input maxLength={200} />
          </Form.Item>
          <Form.Item name="category" label={t('fees.fields.category')}>
            <Select options={CATEGORIES.map((c) => ({ value: c, label: t(`fees.categories.${c}`) }))} />
          </Form.Item>
          <Form.Item name="price" label={t('fees.priceIn', { currency })} rules={[{ required: true, whitespace: true, message: t('validation.required') }]} extra={<FieldNumberNote name="price" amountUnits={units} unit={currency} />}>
            <Input inputMode="decimal" maxLength={18} />
          </Form.Item>
          <Form.Item name="active" label={t('fees.fields.active')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Flex>
  )
}
