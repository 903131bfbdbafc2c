// Results retracted as recorded against the wrong patient: until someone finds whose each was
// and records it there (or says why it cannot be found), the right patient is without it. The
// list stays on the results desk's overdue page, a page at a time with how many wait, until
// each is resolved: refiled to an order of the right patient (the value recorded there with its
// original time, as typed, by its laboratory), a new sample asked for, or its owner said not to
// be identifiable, with the reason (C3 of the laboratory clinician's review). A value flagged
// critical (judged for the patient it was recorded against) is marked and listed first: its
// owner may be in danger and does not know; it escalates until resolved.
import { Alert, App, Button, Card, Form, Input, Modal, Radio, Space, Table, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { PatientSelect } from '../../components/PatientSelect'
import { ScrollRegion } from '../../components/ScrollRegion'
import { ApiError } from '../../lib/api'
import { useCan } from '../../lib/auth/can'
import { chartPath, fullName } from '../../lib/patient'
import { formatDayTime } from '../../lib/time'
import { useMisfiled, type MisfiledResult } from './api/getMisfiled'
import { useRefileOrders } from './api/listRefileOrders'
import { MISFILED_OUTCOMES, useResolveMisfiled, type MisfiledOutcome } from './api/resolveMisfiled'
import { resultText } from './format'
import { reasonLongEnough } from './RetractResult'

const PAGE_SIZES = [10, 15, 20, 30, 50]

export function MisfiledCard() {
  const { t, i18n } = useTranslation()
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(15)
  const list = useMisfiled(page, perPage)
  const canResolve = useCan('record results')
  const [resolving, setResolving] = useState<MisfiledResult | null>(null)
  const total = list.data?.meta?.total ?? 0
  if (total === 0) return null
  return (
    <Card title={t('results.misfiledTitleCount', { count: total })} style={{ marginBottom: 16 }} data-testid="misfiled">
      <Typography.Paragraph type="secondary">{t('results.misfiledHint')}</Typography.Paragraph>
      <ScrollRegion label={t('results.misfiledTitle')}>
        <Table<MisfiledResult>
          rowKey="result_id"
          size="small"
          dataSource={list.data?.data}
          loading={list.isFetching && !list.data}
          pagination={
            total > perPage || perPage !== 15
              ? {
                  current: page,
                  pageSize: perPage,
                  total,
                  pageSizeOptions: PAGE_SIZES,
                  showSizeChanger: true,
                  size: 'small',
                  onChange: (p, size) => {
                    setPage(size !== perPage ? 1 : p)
                    setPerPage(size)
                  },
                }
              : false
          }
          style={{ minWidth: 760 }}
          columns={[
            { title: t('results.test'), key: 'test', render: (_, m) => <Link to={`/results/orders/${m.order_id}`}>{m.test_label}</Link> },
            {
              title: t('results.misfiledValue'),
              key: 'value',
              render: (_, m) => (
                <>
                  {`${m.result.label || m.result.analyte}: ${resultText(t, m.result, i18n.language)}`}
                  {m.critical && (
                    <>
                      {' '}
                      <Tag color="red" data-testid={`misfiled-critical-${m.result_id}`}>
                        {t('results.misfiledCritical')}
                      </Tag>
                      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                        {t('results.misfiledCriticalHint')}
                      </Typography.Text>
                    </>
                  )}
                </>
              ),
            },
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

interface ResolveValues {
  outcome?: MisfiledOutcome
  patient_id?: number
  order_id?: number
  note?: string
}

/**
 * How a misfiled value is resolved. Refiled: pick the patient the sample came from, then their
 * order of the same test that has no value of this analyte yet (an order is added on that
 * patient's visit first if there is none); the value is recorded there as the laboratory
 * reported it, at the time the sample was taken. A new sample: the original patient's order is
 * chased again. Owner not identifiable: the reason is required. Keyboard: the outcomes are a
 * radio group (arrow keys), the patient a searchable list, the orders a radio group.
 */
export function ResolveDialog({ item, onClose }: { item: MisfiledResult; onClose: () => void }) {
  const { t, i18n } = useTranslation()
  const { message } = App.useApp()
  const resolve = useResolveMisfiled()
  const [form] = Form.useForm<ResolveValues>()
  const outcome = Form.useWatch('outcome', form)
  const patientId = Form.useWatch('patient_id', form)
  const orders = useRefileOrders(item.result_id, outcome === 'refiled' ? patientId : undefined)
  const ordersError = orders.error instanceof ApiError ? orders.error.message : orders.error ? (orders.error as Error).message : ''
  const submit = async () => {
    const v = await form.validateFields().catch(() => null)
    if (!v?.outcome) return
    const order = orders.data?.find((o) => o.id === v.order_id)
    try {
      await resolve.mutateAsync({
        id: item.result_id,
        version: item.version,
        outcome: v.outcome,
        note: v.note?.trim() ?? '',
        ...(v.outcome === 'refiled' && order ? { order_id: order.id, order_version: order.version } : {}),
      })
      void message.success(t(`results.misfiledDone.${v.outcome}`))
      onClose()
    } catch (e) {
      if (e instanceof ApiError) {
        const fields = (['outcome', 'order_id', 'note'] as const).filter((f) => e.fields[f])
        if (fields.length > 0) {
          form.setFields(fields.map((f) => ({ name: f, errors: e.fields[f] })))
          return
        }
      }
      void message.error((e as Error).message)
    }
  }
  const value = `${item.result.label || item.result.analyte}: ${resultText(t, item.result, i18n.language)}`
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
      width={640}
      data-testid="misfiled-dialog"
    >
      <Typography.Paragraph>
        <Typography.Text strong>{value}</Typography.Text>
        {item.critical && (
          <Tag color="red" style={{ marginInlineStart: 8 }}>
            {t('results.misfiledCritical')}
          </Tag>
        )}
        <Typography.Text type="secondary" style={{ display: 'block' }}>
          {t('results.misfiledSampleOf', { name: fullName(item.patient), time: formatDayTime(item.result.observed_at) })}
        </Typography.Text>
      </Typography.Paragraph>
      <Form form={form} layout="vertical" requiredMark>
        <Form.Item name="outcome" label={t('results.misfiledOutcome')} rules={[{ required: true, message: t('results.misfiledOutcomeRequired') }]}>
          <Radio.Group>
            <Space orientation="vertical">
              {MISFILED_OUTCOMES.map((o) => (
                <Radio key={o} value={o} data-testid={`misfiled-outcome-${o}`}>
                  {t(`results.misfiledOutcomes.${o}`)}
                  <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }}>
                    {t(`results.misfiledOutcomeHints.${o}`)}
                  </Typography.Text>
                </Radio>
              ))}
            </Space>
          </Radio.Group>
        </Form.Item>
        {outcome === 'refiled' && (
          <>
            <Form.Item name="patient_id" label={t('results.misfiledRightPatient')} rules={[{ required: true, message: t('results.misfiledRightPatientRequired') }]}>
              <PatientSelect ariaLabel={t('results.misfiledRightPatient')} placeholder={t('results.misfiledRightPatientPlaceholder')} onChange={() => form.setFieldValue('order_id', undefined)} />
            </Form.Item>
            {patientId && orders.data?.length === 0 && (
              <Alert type="info" showIcon style={{ marginBottom: 16 }} data-testid="misfiled-no-order" title={t('results.misfiledNoOrder', { test: item.test_label })} />
            )}
            {patientId && orders.data?.length !== 0 && (
              <Form.Item
                name="order_id"
                label={t('results.misfiledOrder', { test: item.test_label })}
                rules={[{ required: true, message: t('results.misfiledOrderRequired') }]}
                validateStatus={ordersError ? 'error' : undefined}
                help={ordersError || undefined}
              >
                <Radio.Group>
                  <Space orientation="vertical">
                    {(orders.data ?? []).map((o) => (
                      <Radio key={o.id} value={o.id} data-testid={`misfiled-order-${o.id}`}>
                        {t('results.misfiledOrderOption', { id: o.id, test: o.test_label, time: formatDayTime(o.ordered_at), status: t(`results.status.${o.status}`) })}
                      </Radio>
                    ))}
                  </Space>
                </Radio.Group>
              </Form.Item>
            )}
          </>
        )}
        <Form.Item
          name="note"
          label={t(outcome === 'unidentified' ? 'results.misfiledWhyUnidentified' : 'results.misfiledNoteOptional')}
          extra={t('results.misfiledNoteHint')}
          required={outcome === 'unidentified'}
          dependencies={['outcome']}
          rules={[
            ({ getFieldValue }) => ({
              validator: (_, v?: string) =>
                getFieldValue('outcome') !== 'unidentified' || reasonLongEnough(v ?? '') ? Promise.resolve() : Promise.reject(new Error(t('results.retractReasonShort'))),
            }),
          ]}
        >
          <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
        </Form.Item>
      </Form>
    </Modal>
  )
}
