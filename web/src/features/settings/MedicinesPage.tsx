import { PlusOutlined, UploadOutlined } from '@ant-design/icons'
import { App, Button, Card, Flex, Form, Input, Modal, Switch, Table, Tag, Upload } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import type { ImportReport, Medicine } from '../../lib/types'
import { showFormErrors } from '../../lib/formErrors'
import { debounce } from '../../lib/debounce'
import { ImportReportAlert } from '../../components/ImportReportAlert'
import { focusFirstField } from '../../components/focusFirstField'
import { ImportProgressBar } from '../../components/ImportProgress'
import { useImportMedicines } from './api/importMedicines'
import { useMedicines } from './api/listMedicines'
import { useSaveMedicine } from './api/saveMedicine'
import { ScrollRegion } from '../../components/ScrollRegion'

const FIELDS = ['generic_name', 'name_ru', 'name_zh', 'name_vi', 'brand', 'strength', 'form', 'unit', 'ingredients', 'atc'] as const
/** The list shows the English (generic) name; the form has the name in each language too. */
const COLUMNS = FIELDS.filter((f) => !f.startsWith('name_'))

/** The medicine catalogue: search, add, edit, withdraw, import from CSV. */
export default function MedicinesPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const saveMedicine = useSaveMedicine()
  const importMedicines = useImportMedicines()
  const [q, setQ] = useState('')
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(15)
  const [editing, setEditing] = useState<Partial<Medicine> | null>(null)
  const [report, setReport] = useState<ImportReport>()
  const [form] = Form.useForm()
  const setQuery = useMemo(() => debounce((v: string) => (setQ(v), setPage(1)), 250), [])
  const { data, isFetching } = useMedicines({ q, page, per_page: perPage })

  const save = async (v: Record<string, string | boolean>) => {
    try {
      await saveMedicine(v, editing?.id ? { id: editing.id, version: editing.version ?? 0 } : undefined)
      message.success(t('medicines.saved'))
      setEditing(null)
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }

  const [importing, setImporting] = useState(false)
  const importFile = async (file: File) => {
    setImporting(true)
    try {
      setReport(await importMedicines(file))
    } catch {
      // the app's error toast has said why
    } finally {
      setImporting(false)
    }
  }

  return (
    <Card title={t('medicines.title')}>
      <Flex gap={8} wrap justify="space-between" style={{ marginBottom: 12 }}>
        <Input.Search allowClear placeholder={t('medicines.search')} aria-label={t('medicines.search')} onChange={(e) => setQuery(e.target.value)} style={{ maxWidth: 360 }} />
        <Flex gap={8} wrap>
          <Upload accept=".csv,.tsv,text/csv" showUploadList={false} beforeUpload={(f) => (void importFile(f), false)}>
            <Button icon={<UploadOutlined aria-hidden />} loading={importing}>
              {t('medicines.import')}
            </Button>
          </Upload>
          <ImportProgressBar list="medicines" active={importing} />
          <Button type="primary" icon={<PlusOutlined aria-hidden />} onClick={() => (form.resetFields(), form.setFieldsValue({ active: true }), setEditing({}))}>
            {t('medicines.add')}
          </Button>
        </Flex>
      </Flex>
      {report && <ImportReportAlert report={report} onClose={() => setReport(undefined)} />}
      <ScrollRegion label={t('medicines.title')}>
        <Table<Medicine>
          style={{ minWidth: 960 }}
          rowKey="id"
          size="small"
          loading={isFetching}
          dataSource={data?.data}
          pagination={{ current: page, pageSize: perPage, total: data?.meta.total, showSizeChanger: true, pageSizeOptions: [10, 15, 20, 30, 50], onChange: (p, s) => (setPage(p), setPerPage(s)) }}
          onRow={(m) => ({ onClick: () => (form.setFieldsValue(m), setEditing(m)), style: { cursor: 'pointer' } })}
          columns={[
            ...COLUMNS.map((f) => ({
              key: f,
              dataIndex: f,
              title: t(`medicines.fields.${f}`),
              // The name is a button, so the keyboard reaches each entry (and the table's scroll).
              render:
                f === 'generic_name'
                  ? (name: string) => (
                      <Button type="link" style={{ padding: 0, height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}>
                        {name}
                      </Button>
                    )
                  : undefined,
            })),
            { key: 'active', title: t('medicines.fields.active'), render: (_: unknown, m: Medicine) => (m.active ? <Tag color="green">{t('medicines.active')}</Tag> : <Tag>{t('medicines.withdrawn')}</Tag>) },
          ]}
        />
      </ScrollRegion>
      <Modal afterOpenChange={focusFirstField} open={!!editing} title={editing?.id ? t('medicines.edit') : t('medicines.add')} onCancel={() => setEditing(null)} onOk={() => form.submit()} okText={t('medicines.save')} destroyOnHidden forceRender>
        <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
          {FIELDS.map((f) => (
            <Form.Item key={f} name={f} label={t(`medicines.fields.${f}`)} rules={f === 'generic_name' ? [{ required: true, whitespace: true, message: t('validation.required') }] : []}>
              <Input maxLength={200} />
            </Form.Item>
          ))}
          <Form.Item name="active" label={t('medicines.fields.active')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>
    </Card>
  )
}
