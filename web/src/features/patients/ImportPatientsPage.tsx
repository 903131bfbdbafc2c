import { CheckCircleOutlined, UploadOutlined } from '@ant-design/icons'
import { Alert, Button, Card, Flex, Table, Tag, Typography, Upload } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../components/ScrollRegion'
import { useImportPatients } from './api/importPatients'
import type { PatientImportReport } from './api/types'

type Line = PatientImportReport['lines'][number]

const STATUS_COLORS: Record<Line['status'], string | undefined> = { created: 'green', would_create: 'blue', duplicate: undefined, invalid: 'red' }

/**
 * Administrator → Import patients: a clinic's existing register, from a spreadsheet (CSV) or
 * another system (FHIR NDJSON or Bundle), checked line by line first, then loaded through
 * the register's own rules; possible duplicates are skipped and named.
 */
export default function ImportPatientsPage() {
  const { t } = useTranslation()
  const importPatients = useImportPatients()
  const [file, setFile] = useState<File | null>(null)
  const [checked, setChecked] = useState<File | null>(null)
  const [report, setReport] = useState<PatientImportReport | null>(null)
  const [busy, setBusy] = useState<'check' | 'import' | null>(null)

  const run = async (dryRun: boolean) => {
    if (!file) return
    setBusy(dryRun ? 'check' : 'import')
    try {
      const rep = await importPatients(file, dryRun)
      setReport(rep)
      if (dryRun) setChecked(file)
      else setChecked(null)
    } catch {
      // the app's error toast has said why
    } finally {
      setBusy(null)
    }
  }

  return (
    <Card title={t('patientImport.title')}>
      <Typography.Paragraph>{t('patientImport.intro')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('patientImport.csvHint')}</Typography.Paragraph>
      <Typography.Paragraph>
        <Typography.Text code>first_name,middle_name,last_name,sex,birth_date,phone,email,address,allergies,previous_number</Typography.Text>
      </Typography.Paragraph>
      <Flex gap={8} wrap align="center" style={{ marginBottom: 16 }}>
        <Upload
          accept=".csv,.ndjson,.jsonl,.json,text/csv,application/json"
          showUploadList={false}
          beforeUpload={(f) => {
            setFile(f)
            setReport(null)
            setChecked(null)
            return false
          }}
        >
          <Button icon={<UploadOutlined aria-hidden />}>{t('patientImport.choose')}</Button>
        </Upload>
        {file && <Typography.Text data-testid="import-file">{file.name}</Typography.Text>}
        <Button icon={<CheckCircleOutlined aria-hidden />} disabled={!file} loading={busy === 'check'} onClick={() => void run(true)}>
          {t('patientImport.check')}
        </Button>
        <Button type="primary" disabled={!file || checked !== file || !report?.created} loading={busy === 'import'} onClick={() => void run(false)}>
          {t('patientImport.import', { count: report?.dry_run ? report.created : 0 })}
        </Button>
      </Flex>
      {report && (
        <>
          <Alert
            type={report.invalid || report.duplicates ? 'warning' : 'success'}
            showIcon
            style={{ marginBottom: 12 }}
            title={t(report.dry_run ? 'patientImport.checkedSummary' : 'patientImport.importedSummary', {
              created: report.created,
              duplicates: report.duplicates,
              invalid: report.invalid,
            })}
            description={report.dry_run ? t('patientImport.checkedHint') : undefined}
          />
          <ScrollRegion label={t('patientImport.report')}>
            <Table<Line>
              rowKey="line"
              size="small"
              dataSource={report.lines}
              pagination={{ pageSize: 50, hideOnSinglePage: true }}
              style={{ minWidth: 640 }}
              columns={[
                { key: 'line', title: t('patientImport.line'), dataIndex: 'line', width: 70 },
                { key: 'name', title: t('patientImport.name'), dataIndex: 'name' },
                {
                  key: 'status',
                  title: t('patientImport.status'),
                  render: (_, l) => <Tag color={STATUS_COLORS[l.status]}>{t(`patientImport.statuses.${l.status}`)}</Tag>,
                },
                { key: 'mrn', title: t('patientImport.mrn'), dataIndex: 'mrn' },
                {
                  key: 'messages',
                  title: t('patientImport.messages'),
                  render: (_, l) => l.messages.map((m, i) => <div key={i}>{m}</div>),
                },
              ]}
            />
          </ScrollRegion>
        </>
      )}
    </Card>
  )
}
