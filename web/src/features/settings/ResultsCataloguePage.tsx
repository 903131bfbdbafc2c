// /administrator/results-catalogue: the analytes tests report — names in four languages,
// LOINC, unit, limits, the reference ranges by sex and age, the critical limits by age and the
// delta checks — edited one at a time or exported and imported as CSV; and when a critical
// result escalates, and to whom.
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons'
import { App, Button, Card, Flex, Input, Space, Table, Tag, Typography, Upload } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { unitLabel } from '../../lib/units'
import { ImportReportAlert } from '../../components/ImportReportAlert'
import { ScrollRegion } from '../../components/ScrollRegion'
import type { ImportReport } from '../../lib/types'
import { useImportAnalytes } from './api/importAnalytes'
import { useAnalytes } from './api/listAnalytes'
import { EXPORT_HREF, type AnalyteEdit } from './api/resultsCatalogue'
import { AnalyteDrawer } from './results/AnalyteDrawer'
import { criticalSummary, deltaSummary, rangeSummary } from './results/bands'
import { ResultSettingsCard } from './results/ResultSettingsCard'
import { TestsCard } from './results/TestsCard'

/** Lines of text in a cell, or a tag saying there are none. */
function Lines({ lines, none }: { lines: string[]; none?: string }) {
  return (
    <Space orientation="vertical" size={0}>
      {lines.map((l, i) => (
        <Typography.Text key={i}>{l}</Typography.Text>
      ))}
      {lines.length === 0 && none && <Tag>{none}</Tag>}
    </Space>
  )
}

export default function ResultsCataloguePage() {
  const { t, i18n } = useTranslation()
  const importAnalytes = useImportAnalytes()
  const analytes = useAnalytes()
  const [q, setQ] = useState('')
  const [editing, setEditing] = useState<AnalyteEdit | null>(null)
  const [report, setReport] = useState<ImportReport>()
  const [importing, setImporting] = useState(false)
  const { message } = App.useApp()
  const lang = i18n.language as 'en' | 'ru' | 'zh' | 'vi'
  const list = useMemo(() => {
    const needle = q.trim().toLowerCase()
    return (analytes.data ?? []).filter((a) => !needle || [a.code, a.loinc, ...Object.values(a.labels)].some((s) => s?.toLowerCase().includes(needle)))
  }, [analytes.data, q])
  const importFile = async (file: File) => {
    setImporting(true)
    try {
      setReport(await importAnalytes(file))
      void message.success(t('catalogueEditor.imported'))
    } catch {
      // the app's error toast has said why
    } finally {
      setImporting(false)
    }
  }
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <ResultSettingsCard />
      <Card title={t('catalogueEditor.title')}>
        <Typography.Paragraph type="secondary">{t('catalogueEditor.hint')}</Typography.Paragraph>
        <Flex gap={8} wrap justify="space-between" style={{ marginBottom: 12 }}>
          <Input.Search allowClear placeholder={t('catalogueEditor.search')} aria-label={t('catalogueEditor.search')} onChange={(e) => setQ(e.target.value)} style={{ maxWidth: 360 }} />
          <Flex gap={8} wrap>
            <Button icon={<DownloadOutlined aria-hidden />} href={EXPORT_HREF} download>
              {t('catalogueEditor.export')}
            </Button>
            <Upload accept=".csv,text/csv" showUploadList={false} beforeUpload={(f) => (void importFile(f), false)}>
              <Button icon={<UploadOutlined aria-hidden />} loading={importing}>
                {t('catalogueEditor.import')}
              </Button>
            </Upload>
          </Flex>
        </Flex>
        {report && <ImportReportAlert report={report} onClose={() => setReport(undefined)} />}
        <ScrollRegion label={t('catalogueEditor.title')}>
          <Table<AnalyteEdit>
            style={{ minWidth: 1100 }}
            rowKey="code"
            size="small"
            loading={analytes.isLoading}
            dataSource={list}
            pagination={{ pageSize: 20, hideOnSinglePage: true, showSizeChanger: false }}
            columns={[
              {
                title: t('catalogueEditor.analyte'),
                key: 'name',
                render: (_, a) => (
                  <Button type="link" style={{ padding: 0 }} onClick={() => setEditing(a)}>
                    {a.labels[lang] || a.labels.en}
                  </Button>
                ),
              },
              { title: t('catalogueEditor.code'), dataIndex: 'code' },
              { title: 'LOINC', dataIndex: 'loinc', render: (v: string) => <span style={{ whiteSpace: 'nowrap' }}>{v}</span> },
              { title: t('catalogueEditor.type'), key: 'type', render: (_, a) => t(`catalogueEditor.types.${a.type}`) },
              // The unit as the reader writes it (the editor shows its UCUM code).
              { title: t('results.unit'), key: 'unit', render: (_, a) => unitLabel(t, a.unit) },
              {
                title: t('catalogueEditor.ranges'),
                key: 'ranges',
                render: (_, a) =>
                  a.type === 'coded' ? (
                    <Typography.Text>{a.answers}</Typography.Text>
                  ) : (
                    a.type === 'numeric' && <Lines lines={a.ranges.map((r) => rangeSummary(r, t, lang))} none={t('catalogueEditor.noRanges')} />
                  ),
              },
              {
                title: t('catalogueEditor.criticalColumn'),
                key: 'critical',
                render: (_, a) => a.type === 'numeric' && <Lines lines={(a.critical ?? []).map((c) => criticalSummary(c, t, lang))} none={t('catalogueEditor.noCritical')} />,
              },
              {
                title: t('catalogueEditor.deltaTitle'),
                key: 'delta',
                render: (_, a) => a.type === 'numeric' && <Lines lines={(a.delta_rules ?? []).map((d) => deltaSummary(d, unitLabel(t, a.unit), t, lang))} />,
              },
            ]}
          />
        </ScrollRegion>
      </Card>
      <TestsCard analytes={analytes.data ?? []} />
      {editing && <AnalyteDrawer key={editing.code} analyte={editing} onClose={() => setEditing(null)} />}
    </Space>
  )
}
