import { Alert, List } from 'antd'
import { useTranslation } from 'react-i18next'
import type { ImportReport } from '../lib/types'

/** What an import of a CSV list did, with its rejected lines; closing it calls onClose. */
export function ImportReportAlert({ report, onClose }: { report: ImportReport; onClose: () => void }) {
  const { t } = useTranslation()
  return (
    <Alert
      closable
      onClose={onClose}
      type={report.rejected ? 'warning' : 'success'}
      style={{ marginBottom: 12 }}
      title={t('medicines.report', { ...report })}
      description={report.errors.length > 0 && <List size="small" dataSource={report.errors} renderItem={(e) => <List.Item>{t('medicines.line', { line: e.line, message: e.message })}</List.Item>} />}
    />
  )
}
