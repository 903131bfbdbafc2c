import { UploadOutlined } from '@ant-design/icons'
import { Alert, Button, Drawer, Input, List, Space, Table, Typography, Upload } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { debounce } from '../../lib/debounce'
import { ImportProgressBar } from '../../components/ImportProgress'
import type { ImportReport } from '../../lib/types'
import { useImportCodes } from './api/importCodes'
import { searchCodes } from './api/searchCodes'
import type { Code } from './api/types'

/** The diagnosis code list: search it, and (admins) import a full code set from CSV. */
export function CodesDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const importCodes = useImportCodes()
  const [report, setReport] = useState<ImportReport>()
  const [codes, setCodes] = useState<Code[]>([])
  const search = useMemo(() => debounce((q: string) => void searchCodes(q).then(setCodes), 250), [])

  return (
    <Drawer open={open} onClose={onClose} title={t('codes.title')} size="large" afterOpenChange={(o) => o && search('')}>
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('codes.importHelp')}
        </Typography.Paragraph>
        <Upload
          accept=".csv,.tsv,.txt,text/csv"
          showUploadList={false}
          customRequest={({ file }) => importCodes.mutate(file as File, { onSuccess: setReport })}
        >
          <Button icon={<UploadOutlined aria-hidden />} loading={importCodes.isPending}>
            {t('codes.import')}
          </Button>
        </Upload>
        <ImportProgressBar list="diagnosis_codes" active={importCodes.isPending} />
        {report && (
          <Alert
            type={report.rejected > 0 ? 'warning' : 'success'}
            showIcon
            title={t('codes.report', { inserted: report.inserted, updated: report.updated, unchanged: report.unchanged, rejected: report.rejected })}
            description={
              report.errors.length > 0 && (
                <Table
                  size="small"
                  rowKey="line"
                  pagination={{ pageSize: 10, hideOnSinglePage: true }}
                  dataSource={report.errors}
                  columns={[
                    { title: t('codes.line'), dataIndex: 'line', width: 80 },
                    { title: t('codes.problem'), dataIndex: 'message' },
                  ]}
                />
              )
            }
          />
        )}
        <Input.Search allowClear placeholder={t('visit.codeSearch')} aria-label={t('codes.search')} onChange={(e) => search(e.target.value)} />
        <List
          size="small"
          dataSource={codes}
          renderItem={(c) => (
            <List.Item>
              <Typography.Text strong style={{ minWidth: 72 }}>
                {c.code}
              </Typography.Text>
              <span style={{ flex: 1 }}>{c.label}</span>
            </List.Item>
          )}
        />
      </Space>
    </Drawer>
  )
}
