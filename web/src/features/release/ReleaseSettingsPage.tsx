import { App, Button, Card, Form, Radio, Select, Spin, Typography } from 'antd'
import { useEffect } from 'react'
import { useTranslation } from 'react-i18next'
import { showFormErrors } from '../../lib/formErrors'
import { useReleaseSettings } from './api/getReleaseSettings'
import type { ReleaseSettings } from './api/release'
import { useSaveReleaseSettings } from './api/saveReleaseSettings'

/** The kinds a document rule names, in the order the documents screens list them, and prescriptions. */
const KINDS = ['visit_summary', 'medical_certificate', 'fitness_to_work', 'referral', 'lab_request', 'imaging_request', 'results_report', 'custom', 'prescription']

/** The clinic's rules of what its patients see: results once reviewed or by hand; each kind of document when issued or by hand. */
export default function ReleaseSettingsPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const saveReleaseSettings = useSaveReleaseSettings()
  const { data } = useReleaseSettings()
  const [form] = Form.useForm<ReleaseSettings>()
  useEffect(() => {
    if (data) form.setFieldsValue(data)
  }, [data, form])
  if (!data) return <Spin />
  const save = async (v: ReleaseSettings) => {
    try {
      await saveReleaseSettings({ results: v.results, documents: { ...data.documents, ...v.documents } }, data.version)
      message.success(t('release.settingsSaved'))
    } catch (e) {
      showFormErrors(form, message, e)
    }
  }
  const docOptions = [
    { value: 'issued', label: t('release.rule.issued') },
    { value: 'manual', label: t('release.rule.manual') },
  ]
  return (
    <Card title={t('release.settingsTitle')} style={{ maxWidth: 680 }}>
      <Typography.Paragraph type="secondary">{t('release.settingsHint')}</Typography.Paragraph>
      <Form form={form} layout="vertical" onFinish={(v) => void save(v)}>
        <Form.Item name="results" label={t('release.resultsRule')}>
          <Radio.Group
            style={{ display: 'flex', flexDirection: 'column', gap: 8 }}
            options={[
              { value: 'reviewed', label: t('release.rule.reviewed') },
              { value: 'manual', label: t('release.rule.resultsManual') },
            ]}
          />
        </Form.Item>
        <Typography.Paragraph type="secondary" style={{ marginTop: -12 }}>
          {t('release.neverHint')}
        </Typography.Paragraph>
        <Typography.Title level={5}>{t('release.documentsRule')}</Typography.Title>
        {KINDS.map((k) => (
          <Form.Item key={k} name={['documents', k]} label={k === 'prescription' ? t('release.docKind.prescription') : t(`documents.kinds.${k}`)}>
            <Select options={docOptions} style={{ maxWidth: 320 }} />
          </Form.Item>
        ))}
        <Button type="primary" htmlType="submit">
          {t('release.save')}
        </Button>
      </Form>
    </Card>
  )
}
