// /administrator/results-catalogue: the analytes tests report — names in four languages,
// LOINC, unit, limits and the reference and critical ranges by sex and age — edited one at a
// time or exported and imported as CSV; and when a critical result escalates, and to whom.
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons'
import { useQueryClient } from '@tanstack/react-query'
import type { TFunction } from 'i18next'
import { App, Button, Card, Flex, Input, Space, Table, Tag, Typography, Upload } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { unitLabel } from '../../lib/units'
import { ImportReportAlert } from '../../components/ImportReportAlert'
import { ScrollRegion } from '../../components/ScrollRegion'
import type { ImportReport } from '../../lib/types'
import { analytesKey, EXPORT_HREF, importAnalytes, useAnalytes, type AnalyteEdit } from './api/resultsCatalogue'
import { AnalyteDrawer } from './results/AnalyteDrawer'
import { ResultSettingsCard } from './results/ResultSettingsCard'
import { TestsCard } from './results/TestsCard'

const num = (n: number | null | undefined) => (n == null ? '' : String(n))

/** A range as the list shows it: "male ≥18 y: 3.5–5.1 (critical 3.0/6.0)". */
export function rangeSummary(r: AnalyteEdit['ranges'][number], t: TFunction): string {
  const who = t(`catalogueEditor.sex.${r.sex}`)
  const from = r.age_from_months, to = r.age_to_months
  const ages = to == null ? (from === 0 ? '' : ` ≥ ${t('catalogueEditor.months', { count: from })}`) : ` ${t('catalogueEditor.months', { count: from })}–${t('catalogueEditor.months', { count: to })}`
  const normal = r.low != null || r.high != null ? `${num(r.low)}–${num(r.high)}` : ''
  const critical = r.critical_low != null || r.critical_high != null ? ` (${t('catalogueEditor.criticalShort')} ${num(r.critical_low)}/${num(r.critical_high)})` : ''
  return `${who}${ages}: ${normal}${critical}`
}

export default function ResultsCataloguePage() {
  const { t, i18n } = useTranslation()
  const queryClient = useQueryClient()
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
      void queryClient.invalidateQueries({ queryKey: analytesKey })
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
            style={{ minWidth: 900 }}
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
                    <Space orientation="vertical" size={0}>
                      {a.ranges.map((r, i) => (
                        <Typography.Text key={i}>{rangeSummary(r, t)}</Typography.Text>
                      ))}
                      {a.ranges.length === 0 && a.type === 'numeric' && <Tag>{t('catalogueEditor.noRanges')}</Tag>}
                    </Space>
                  ),
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
