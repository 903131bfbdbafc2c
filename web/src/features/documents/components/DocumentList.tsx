import { FileAddOutlined, PrinterOutlined, StopOutlined } from '@ant-design/icons'
import { App, Button, Card, Empty, List, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../../lib/api'
import { useCan } from '../../../lib/auth/can'
import { formatDayTime } from '../../../lib/time'
import { useAskReason } from '../../../components/askReason'
import { useCancelDocument } from '../api/cancelDocument'
import { useDocuments, type Owner } from '../api/documents'
import { printPath } from '../api/types'
import { IssueDocument } from './IssueDocument'
import { ListMeta } from '../../../components/ListMeta'

interface Props {
  patientId: number
  appointmentId?: number
  /** A cancelled or missed visit issues nothing. */
  closed?: boolean
}

/** The documents card of a visit or a chart: issued documents (print again, cancel) and, for doctors, a new one. */
export function DocumentsCard({ patientId, appointmentId, closed }: Props) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const canIssue = useCan('issue documents')
  const owner: Owner = appointmentId !== undefined ? { appointmentId } : { patientId }
  const { data, isLoading } = useDocuments(owner)
  const cancel = useCancelDocument()
  const ask = useAskReason()
  const [issuing, setIssuing] = useState(false)
  return (
    <Card
      title={t('documents.title')}
      extra={
        canIssue &&
        !closed && (
          <Button size="small" icon={<FileAddOutlined aria-hidden />} onClick={() => setIssuing(true)}>
            {t('documents.issue')}
          </Button>
        )
      }
    >
      <List
        loading={isLoading}
        dataSource={data ?? []}
        rowKey="id"
        locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('documents.none')} /> }}
        renderItem={(d) => (
          <List.Item data-testid="document-item">
            <ListMeta
              title={
                <Space wrap size={6}>
                  <span lang={d.language}>{d.title}</span>
                  <Tag color={d.status === 'issued' ? 'green' : 'default'}>{t(`documents.status.${d.status}`)}</Tag>
                </Space>
              }
              description={
                <Space orientation="vertical" size={2}>
                  <Typography.Text type="secondary">
                    {d.number} · {formatDayTime(d.issued_at)} · {d.doctor.name}
                    {d.status === 'cancelled' && d.cancel_reason && ` · ${d.cancel_reason}`}
                  </Typography.Text>
                  {d.status === 'issued' && (
                    <Space wrap size={12}>
                      <Link to={printPath(d)} aria-label={t('documents.printNamed', { number: d.number })}>
                        <PrinterOutlined aria-hidden /> {t('documents.print')}
                      </Link>
                      {canIssue && (
                        <Button
                          type="link"
                          danger
                          size="small"
                          style={{ padding: 0, height: 'auto' }}
                          icon={<StopOutlined aria-hidden />}
                          aria-label={t('documents.cancelNamed', { number: d.number })}
                          onClick={() =>
                            ask({
                              title: t('documents.cancelTitle', { number: d.number }),
                              label: t('documents.cancelReason'),
                              okText: t('documents.cancel'),
                              cancelText: t('documents.close'),
                              danger: true,
                              onOk: (reason) =>
                                cancel.mutateAsync({ doc: d, reason }).then(
                                  () => message.success(t('documents.cancelled')),
                                  (e) => e instanceof ApiError && message.error(e.display),
                                ),
                            })
                          }
                        >
                          {t('documents.cancel')}
                        </Button>
                      )}
                    </Space>
                  )}
                </Space>
              }
            />
          </List.Item>
        )}
      />
      {canIssue && <IssueDocument patientId={patientId} appointmentId={appointmentId} open={issuing} onClose={() => setIssuing(false)} />}
    </Card>
  )
}
