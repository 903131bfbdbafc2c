import { App, Button, Card, Empty, Flex, Form, Select, Space, Table, Tag, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import dayjs, { type Dayjs } from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { DateInput } from '../../components/DateInput'
import { ScrollRegion } from '../../components/ScrollRegion'
import { MESSAGE_CHANNELS, MESSAGE_STATUSES, messageChannelLabel, messageStatusColor, messageStatusLabel, messageTopicLabel } from '../../lib/patientMessages'
import { useMessageLog, useRefreshMessages, type LogEntry, type LogFilter } from './api/messages'
import { resendMessage } from './api/resendMessage'

const when = (s: string | null | undefined) => (s ? dayjs(s).format('DD.MM.YYYY HH:mm') : '—')

/** The log of appointment messages to patients: what went, what waits, what failed, and resend. */
export default function MessageLogPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const refresh = useRefreshMessages()
  const [filter, setFilter] = useState<LogFilter>({})
  const [pages, setPages] = useState<number[]>([]) // the before of each page shown after the first
  const before = pages.at(-1)
  const { data, isLoading } = useMessageLog({ ...filter, before })
  const [busy, setBusy] = useState<number>()

  const resend = async (m: LogEntry) => {
    setBusy(m.id)
    try {
      await resendMessage(m.id)
      message.success(t('patientMessages.resent'))
      await refresh()
    } catch {
      // the API client has shown the server's message
    } finally {
      setBusy(undefined)
    }
  }

  const columns: ColumnsType<LogEntry> = [
    { title: t('patientMessages.written'), dataIndex: 'created_at', width: 140, render: (v: string) => when(v) },
    {
      title: t('patientMessages.patient'),
      key: 'patient',
      render: (_, m) => (
        <span>
          {m.patient || '—'}
          {m.mrn && <Typography.Text type="secondary"> · {m.mrn}</Typography.Text>}
        </span>
      ),
    },
    { title: t('patientMessages.topicLabel'), dataIndex: 'topic', render: (v: LogEntry['topic']) => t(messageTopicLabel[v]) },
    {
      title: t('patientMessages.recipient'),
      key: 'to',
      render: (_, m) => (
        <span>
          {t(messageChannelLabel[m.channel])}
          {m.to && <Typography.Text type="secondary"> · {m.to}</Typography.Text>}
        </span>
      ),
    },
    {
      title: t('patientMessages.statusLabel'),
      dataIndex: 'status',
      render: (v: LogEntry['status'], m) => (
        <Space orientation="vertical" size={2}>
          <Tag color={messageStatusColor[v]} style={{ marginInlineEnd: 0 }}>
            {t(messageStatusLabel[v])}
          </Tag>
          {m.last_error && <Typography.Text type="secondary">{m.last_error}</Typography.Text>}
        </Space>
      ),
    },
    { title: t('patientMessages.attempts'), dataIndex: 'attempts', width: 90, responsive: ['md'] },
    {
      title: t('patientMessages.sentAt'),
      key: 'sent',
      width: 140,
      render: (_, m) => (m.status === 'pending' ? t('patientMessages.dueAt', { time: when(m.due_at) }) : when(m.sent_at)),
    },
    {
      title: t('patientMessages.actions'),
      key: 'actions',
      width: 120,
      render: (_, m) =>
        m.status === 'failed' && m.topic !== 'patient.code' ? (
          <Button size="small" loading={busy === m.id} onClick={() => void resend(m)}>
            {t('patientMessages.resend')}
          </Button>
        ) : null,
    },
  ]

  const apply = (v: { status?: string; channel?: string; from?: Dayjs | null; to?: Dayjs | null }) => {
    setPages([])
    setFilter({
      status: v.status || undefined,
      channel: v.channel || undefined,
      from: v.from ? v.from.format('YYYY-MM-DD') : undefined,
      to: v.to ? v.to.format('YYYY-MM-DD') : undefined,
    })
  }

  return (
    <Card title={t('patientMessages.logTitle')}>
      <Form layout="inline" onFinish={apply} style={{ rowGap: 8, marginBottom: 16 }} aria-label={t('patientMessages.filters')}>
        <Form.Item name="status" label={t('patientMessages.statusLabel')}>
          <Select allowClear style={{ width: 160 }} options={MESSAGE_STATUSES.map((s) => ({ value: s, label: t(messageStatusLabel[s]) }))} />
        </Form.Item>
        <Form.Item name="channel" label={t('patientMessages.channelLabel')}>
          <Select allowClear style={{ width: 140 }} options={MESSAGE_CHANNELS.map((c) => ({ value: c, label: t(messageChannelLabel[c]) }))} />
        </Form.Item>
        <Form.Item name="from" label={t('patientMessages.from')}>
          <DateInput />
        </Form.Item>
        <Form.Item name="to" label={t('patientMessages.to')}>
          <DateInput />
        </Form.Item>
        <Form.Item>
          <Button type="primary" htmlType="submit">
            {t('patientMessages.apply')}
          </Button>
        </Form.Item>
      </Form>
      <ScrollRegion label={t('patientMessages.logTitle')}>
        <Table<LogEntry>
          rowKey="id"
          columns={columns}
          dataSource={data?.data ?? []}
          loading={isLoading}
          pagination={false}
          style={{ minWidth: 760 }}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('patientMessages.empty')} /> }}
        />
      </ScrollRegion>
      <Flex gap={8} justify="flex-end" style={{ marginTop: 12 }}>
        <Button disabled={pages.length === 0} onClick={() => setPages(pages.slice(0, -1))}>
          {t('patientMessages.newer')}
        </Button>
        <Button disabled={!data?.next} onClick={() => data?.next && setPages([...pages, data.next])}>
          {t('patientMessages.older')}
        </Button>
      </Flex>
    </Card>
  )
}
