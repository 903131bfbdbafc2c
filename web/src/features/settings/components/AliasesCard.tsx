import { UploadOutlined } from '@ant-design/icons'
import { App, Button, Card, Flex, Form, Input, Typography, Upload } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ImportReportAlert } from '../../../components/ImportReportAlert'
import { showFormErrors } from '../../../lib/formErrors'
import type { ImportReport } from '../../../lib/types'
import { type ClinicAlias, useSafetyChanges } from '../api/safetyChanges'
import { AdditionsTable } from './AdditionsTable'

/** The clinic's brand and combination names: add one, import a CSV (name,ingredients), remove. */
export function AliasesCard({ aliases, names }: { aliases: ClinicAlias[]; names: Map<string, string> }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const [form] = Form.useForm<{ name: string; ingredients: string }>()
  const [report, setReport] = useState<ImportReport>()
  const { addAlias, importAliases, removeAlias } = useSafetyChanges()

  const add = async (v: { name: string; ingredients: string }) => {
    try {
      await addAlias.mutateAsync(v)
      message.success(t('medicineSafety.added'))
      form.resetFields()
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }

  return (
    <Card
      title={t('medicineSafety.aliases')}
      extra={
        <Upload accept=".csv,.tsv,text/csv" showUploadList={false} beforeUpload={(f) => (importAliases.mutate(f, { onSuccess: setReport }), false)}>
          <Button icon={<UploadOutlined aria-hidden />} loading={importAliases.isPending}>
            {t('medicineSafety.importAliases')}
          </Button>
        </Upload>
      }
    >
      {report && <ImportReportAlert report={report} onClose={() => setReport(undefined)} />}
      <Typography.Paragraph type="secondary">{t('medicineSafety.aliasHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => void add(v)}>
        <Flex gap={8} wrap align="end">
          <Form.Item name="name" label={t('medicineSafety.aliasName')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]} style={{ flex: '1 1 160px', marginBottom: 8 }}>
            <Input maxLength={100} />
          </Form.Item>
          <Form.Item name="ingredients" label={t('medicineSafety.aliasIngredients')} rules={[{ required: true, whitespace: true, message: t('validation.required') }]} style={{ flex: '3 1 260px', marginBottom: 8 }}>
            <Input maxLength={500} />
          </Form.Item>
          <Form.Item style={{ marginBottom: 8 }}>
            <Button type="primary" htmlType="submit" loading={addAlias.isPending}>
              {t('medicineSafety.addAlias')}
            </Button>
          </Form.Item>
        </Flex>
      </Form>
      <AdditionsTable<ClinicAlias>
        label={t('medicineSafety.aliases')}
        rows={aliases}
        minWidth={560}
        empty={t('medicineSafety.noAliases')}
        nameOf={(a) => a.name}
        onRemove={(a, done) => removeAlias.mutate(a.id, { onSuccess: done })}
        columns={[
          { key: 'name', dataIndex: 'name', title: t('medicineSafety.aliasName') },
          { key: 'ingredients', dataIndex: 'ingredients', title: t('medicineSafety.aliasIngredients'), render: (v: string) => v.split(' + ').map((k) => names.get(k) ?? k).join(' + ') },
          { key: 'by', dataIndex: 'created_by', title: t('medicineSafety.by') },
        ]}
      />
    </Card>
  )
}
