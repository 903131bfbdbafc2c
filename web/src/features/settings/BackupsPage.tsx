import { Alert, App, Button, Card, Descriptions, Empty, Flex, Spin, Table, Tag, Typography } from 'antd'
import { CloudDownloadOutlined, SaveOutlined } from '@ant-design/icons'
import { useTranslation } from 'react-i18next'
import { formatDayTime } from '../../lib/time'
import { useBackUpNow } from './api/backUpNow'
import { backupUrl, useBackups, type BackupStatus } from './api/getBackups'
import { formatInterval, formatSize } from './units'
import { ScrollRegion } from '../../components/ScrollRegion'

type BackupFile = BackupStatus['files'][number]

/** Scheduled backups (emr serve --backup-dir): the archives kept, and whether they are in time. */
export default function BackupsPage() {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const { data } = useBackups()
  const backUpNow = useBackUpNow()
  if (!data) return <Spin />
  if (!data.enabled) {
    return (
      <Card title={t('backups.title')} style={{ maxWidth: 800 }}>
        <Alert type="warning" showIcon title={t('backups.off')} description={t('backups.offHint')} />
        <Typography.Paragraph style={{ marginTop: 16 }}>
          <Typography.Text code>emr serve --backup-dir /var/backups/emr --backup-recipient age1… --backup-every 24h --backup-keep 14</Typography.Text>
        </Typography.Paragraph>
      </Card>
    )
  }
  const state = data.running ? 'running' : data.last_failure ? 'failed' : data.overdue ? 'overdue' : 'ok'
  const colors = { running: 'processing', failed: 'error', overdue: 'warning', ok: 'success' } as const
  const backUp = () => backUpNow.mutate(undefined, { onSuccess: (st) => message.success(t('backups.backedUp', { file: st.files[0]?.name ?? '' })) })
  return (
    <Card title={t('backups.title')} style={{ maxWidth: 800 }}>
      {data.last_failure && (
        <Alert
          type="error"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('backups.lastFailure', { at: formatDayTime(data.last_failure.at) })}
          description={<span lang="en">{data.last_failure.error}</span>}
        />
      )}
      {data.overdue && !data.last_failure && <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('backups.banner')} />}
      {!data.encrypted && (
        <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('backups.plaintextWarning')} description={t('backups.plaintextHint')} />
      )}
      <Descriptions bordered size="small" column={1} style={{ marginBottom: 16 }}>
        <Descriptions.Item label={t('backups.status')}>
          <Tag color={colors[state]}>{t(`backups.state.${state}`)}</Tag>
        </Descriptions.Item>
        <Descriptions.Item label={t('backups.lastSuccess')}>{data.last_success ? formatDayTime(data.last_success) : t('backups.never')}</Descriptions.Item>
        <Descriptions.Item label={t('backups.every')}>{formatInterval(data.every_seconds ?? 0, i18n.language)}</Descriptions.Item>
        <Descriptions.Item label={t('backups.keep')}>{t('backups.keepCount', { count: data.keep ?? 0 })}</Descriptions.Item>
        <Descriptions.Item label={t('backups.dir')}>
          <Typography.Text code>{data.dir}</Typography.Text>
        </Descriptions.Item>
        <Descriptions.Item label={t('backups.encryption')}>
          <Tag color={data.encrypted ? 'success' : 'warning'}>{t(data.encrypted ? 'backups.encrypted' : 'backups.plaintext')}</Tag>
        </Descriptions.Item>
        {data.encrypted && (
          <Descriptions.Item label={t('backups.recipients')}>
            {data.recipients.map((r) => (
              <div key={r} style={{ overflowWrap: 'anywhere' }}>
                <Typography.Text code>{r}</Typography.Text>
              </div>
            ))}
          </Descriptions.Item>
        )}
      </Descriptions>
      {data.encrypted && <Typography.Paragraph type="secondary">{t('backups.keyHint')}</Typography.Paragraph>}
      <Flex justify="space-between" align="center" wrap gap={8} style={{ marginBottom: 8 }}>
        <Typography.Title level={5} style={{ margin: 0 }}>
          {t('backups.files')}
        </Typography.Title>
        <Button type="primary" icon={<SaveOutlined aria-hidden />} loading={backUpNow.isPending || data.running} onClick={backUp}>
          {t('backups.backUpNow')}
        </Button>
      </Flex>
      <ScrollRegion label={t('backups.files')}>
        <Table<BackupFile>
          style={{ minWidth: 'max-content' }}
          rowKey="name"
          size="small"
          pagination={false}
          dataSource={data.files}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('backups.empty')} /> }}
          columns={[
            { title: t('backups.written'), dataIndex: 'written', render: (v: string) => formatDayTime(v) },
            { title: t('backups.size'), dataIndex: 'size', align: 'right', render: (v: number) => formatSize(v, i18n.language) },
            {
              title: t('backups.download'),
              key: 'download',
              render: (_, f) => (
                <a href={backupUrl(f.name)} download={f.name} aria-label={t('backups.downloadFile', { file: f.name })}>
                  <CloudDownloadOutlined aria-hidden /> {t('backups.download')}
                </a>
              ),
            },
            { title: t('backups.file'), dataIndex: 'name', render: (v: string) => <Typography.Text code>{v}</Typography.Text> },
          ]}
        />
      </ScrollRegion>
      <Typography.Paragraph type="secondary" style={{ marginTop: 16 }}>
        {t('backups.restoreHint')}
      </Typography.Paragraph>
    </Card>
  )
}
