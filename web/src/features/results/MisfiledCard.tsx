// Results retracted as recorded against the wrong patient: until someone finds whose each was
// and records it there (or says why it cannot be found), the right patient is without it. The
// list stays on the results desk's overdue page until each is resolved with a note.
import { App, Button, Card, Form, Input, Modal, Table, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ScrollRegion } from '../../components/ScrollRegion'
import { ApiError } from '../../lib/api'
import { useCan } from '../../lib/auth/can'
import { chartPath, fullName } from '../../lib/patient'
import { formatDayTime } from '../../lib/time'
import { useMisfiled, type MisfiledResult } from './api/getMisfiled'
import { useResolveMisfiled } from './api/resolveMisfiled'
import { resultText } from './format'
import { reasonLongEnough } from './RetractResult'

export function MisfiledCard() {
  const { t, i18n } = useTranslation()
  const list = useMisfiled()
  const canResolve = useCan('record results')
  const [resolving, setResolving] = useState<MisfiledResult | null>(null)
  if (!list.data?.length) return null
  return (
    <Card title={t('results.misfiledTitle')} style={{ marginBottom: 16 }} data-testid="misfiled">
      <Typography.Paragraph type="secondary">{t('results.misfiledHint')}</Typography.Paragraph>
      <ScrollRegion label={t('results.misfiledTitle')}>
        <Table<MisfiledResult>
          rowKey="result_id"
          size="small"
          dataSource={list.data}
          pagination={false}
          style={{ minWidth: 760 }}
          columns={[
            { title: t('results.test'), key: 'test', render: (_, m) => <Link to={`/results/orders/${m.order_id}`}>{m.test_label}</Link> },
            { title: t('results.misfiledValue'), key: 'value', render: (_, m) => `${m.result.label || m.result.analyte}: ${resultText(t, m.result, i18n.language)}` },
            { title: t('results.misfiledWrongPatient'), key: 'patient', render: (_, m) => <Link to={chartPath(m.patient)}>{fullName(m.patient)}</Link> },
            { title: t('results.misfiledRetracted'), key: 'by', render: (_, m) => `${m.retracted_by} · ${formatDayTime(m.retracted_at)}` },
            { title: t('results.reason'), key: 'reason', dataIndex: 'reason' },
            ...(canResolve
              ? [
                  {
                    title: t('results.actions'),
                    key: 'resolve',
                    render: (_: unknown, m: MisfiledResult) => (
                      <Button size="small" onClick={() => setResolving(m)} data-testid={`misfiled-resolve-${m.result_id}`}>
                        {t('results.misfiledResolve')}
                      </Button>
                    ),
                  },
                ]
              : []),
          ]}
        />
      </ScrollRegion>
      {resolving && <ResolveDialog item={resolving} onClose={() => setResolving(null)} />}
    </Card>
  )
}

function ResolveDialog({ item, onClose }: { item: MisfiledResult; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const resolve = useResolveMisfiled()
  const [form] = Form.useForm<{ note?: string }>()
  const submit = async () => {
    const v = await form.validateFields().catch(() => null)
    if (!v) return
    try {
      await resolve.mutateAsync({ id: item.result_id, note: v.note!.trim() })
      void message.success(t('results.misfiledResolved'))
      onClose()
    } catch (e) {
      if (e instanceof ApiError && e.fields.note) {
        form.setFields([{ name: 'note', errors: e.fields.note }])
        return
      }
      void message.error((e as Error).message)
    }
  }
  return (
    <Modal
      open
      title={t('results.misfiledResolveTitle', { test: item.test_label })}
      okText={t('results.misfiledResolveOk')}
      cancelText={t('results.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={resolve.isPending}
      maskClosable={false}
    >
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item
          name="note"
          label={t('results.misfiledNote')}
          extra={t('results.misfiledNoteHint')}
          required
          rules={[{ validator: (_, v?: string) => (reasonLongEnough(v ?? '') ? Promise.resolve() : Promise.reject(new Error(t('results.retractReasonShort')))) }]}
        >
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  )
}
