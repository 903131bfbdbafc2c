// /results/orders/{id}: one order — its patient, state and history, its results (with what a
// correction replaced), the actions its state allows, and the form that records its results.
import { FileOutlined, UploadOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Descriptions, Result, Space, Spin, Timeline, Typography, Upload } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link, useParams } from 'react-router'
import { useAskReason } from '../../components/askReason'
import { ApiError } from '../../lib/api'
import { useCan } from '../../lib/auth/can'
import { chartPath, fullName } from '../../lib/patient'
import { usePatientRecord } from '../../lib/patientRecord'
import { formatDay, formatDayTime } from '../../lib/time'
import { useViewSubject } from '../../lib/viewSubject'
import { useAttachReport } from './api/attachReport'
import { useOrder } from './api/getOrder'
import { useTransition } from './api/transitionOrder'
import type { LabOrder, PatientHead } from './api/types'
import { RecordForm } from './RecordForm'
import { OrderAlerts } from './OrderAlerts'
import { RetractButton } from './RetractResult'
import { ResultsTable, StatusTag } from './ResultParts'

/** The laboratories that performed an order's current results, each once ('' is the clinic's own). */
function performers(o: LabOrder): string[] {
  return [...new Set(o.results.map((r) => r.performer))]
}

export default function OrderPage() {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const order = useOrder(id)
  if (order.error) {
    const forbidden = order.error instanceof ApiError && order.error.status === 403
    return <Result status={forbidden ? '403' : '404'} subTitle={forbidden ? t('results.forbidden') : t('results.notFound')} />
  }
  if (!order.data) return <Spin />
  return <OrderView order={order.data} />
}

function OrderView({ order: o }: { order: LabOrder }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const askReason = useAskReason()
  const canRecord = useCan('record results')
  const canCancel = useCan('write diagnosis') || canRecord
  const canSeePatient = useCan('view patient')
  // The patient's record, through the one query every feature reads it by.
  const patient = usePatientRecord<PatientHead>(canSeePatient ? o.patient_id : undefined)
  useViewSubject(patient.data ? `${o.test_label} · ${fullName(patient.data)}` : o.test_label)
  const transition = useTransition(o.id)
  const attach = useAttachReport(o.id)
  const closed = o.status === 'cancelled' || o.status === 'not_done'
  const withReason = (action: 'cancel' | 'not-done') =>
    askReason({
      title: t(action === 'cancel' ? 'results.cancelTitle' : 'results.notDoneTitle'),
      label: t(action === 'cancel' ? 'results.cancelReason' : 'results.notDoneReason'),
      okText: t(action === 'cancel' ? 'results.cancelOrder' : 'results.markNotDone'),
      cancelText: t('results.cancel'),
      danger: true,
      onOk: async (reason) => {
        await transition.mutateAsync({ action, version: o.version, reason })
        void message.success(t('results.changed'))
      },
    })
  const collect = () =>
    transition.mutate({ action: 'collect', version: o.version }, { onSuccess: () => void message.success(t('results.changed')), onError: (e) => void message.error((e as Error).message) })

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      <Card
        title={
          <Space wrap>
            <span>{o.test_label || o.test}</span>
            <StatusTag status={o.status} />
            {o.overdue && <Typography.Text type="danger">{t('results.overdue')}</Typography.Text>}
          </Space>
        }
        extra={
          <Space wrap>
            {canRecord && o.status === 'ordered' && (
              <Button onClick={collect} loading={transition.isPending} data-testid="collect">
                {t('results.collect')}
              </Button>
            )}
            {canCancel && (o.status === 'ordered' || o.status === 'collected') && (
              <Button danger onClick={() => withReason('cancel')} data-testid="cancel-order">
                {t('results.cancelOrder')}
              </Button>
            )}
            {canRecord && ['ordered', 'collected', 'preliminary'].includes(o.status) && (
              <Button onClick={() => withReason('not-done')} data-testid="not-done">
                {t('results.markNotDone')}
              </Button>
            )}
          </Space>
        }
      >
        <Descriptions size="small" column={{ xs: 1, sm: 2, lg: 3 }}>
          {patient.data && (
            <Descriptions.Item label={t('results.patient')}>
              <Link to={chartPath(patient.data)}>{fullName(patient.data)}</Link>
              &nbsp;·&nbsp;{patient.data.mrn}&nbsp;·&nbsp;{formatDay(patient.data.birth_date)}
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('results.orderedBy')}>
            {o.ordered_by_name} · {formatDayTime(o.ordered_at)}
          </Descriptions.Item>
          <Descriptions.Item label={t('results.due')}>{formatDayTime(o.due_at)}</Descriptions.Item>
          {o.collected_at && <Descriptions.Item label={t('results.collectedAt')}>{formatDayTime(o.collected_at)}</Descriptions.Item>}
          {o.loinc && <Descriptions.Item label="LOINC">{o.loinc}</Descriptions.Item>}
          {o.note && <Descriptions.Item label={t('results.note')}>{o.note}</Descriptions.Item>}
          {o.reason && <Descriptions.Item label={t('results.reason')}>{o.reason}</Descriptions.Item>}
          {o.reviewed_at && (
            <Descriptions.Item label={t('results.reviewedBy')}>
              {o.reviewed_by_name} · {formatDayTime(o.reviewed_at)}
              {o.review_comment && <> · {o.review_comment}</>}
            </Descriptions.Item>
          )}
          {o.results.length > 0 && (
            <Descriptions.Item label={t('results.performer')}>
              <span data-testid="performer">{performers(o).map((p) => p || t('results.performerClinic')).join('; ')}</span>
            </Descriptions.Item>
          )}
          <Descriptions.Item label={t('results.visit')}>
            <Link to={`/appointments/form/${o.appointment_id}`}>{t('results.openVisit')}</Link>
          </Descriptions.Item>
        </Descriptions>
      </Card>
      {o.results.length > 0 && (
        <Card title={t('results.resultsTitle')} extra={canRecord && <RetractButton order={o} />}>
          {o.corrections > 0 && <Alert type="info" showIcon title={t('results.correctedTimes', { count: o.corrections })} style={{ marginBottom: 12 }} />}
          <ResultsTable results={o.results} showTime action={canRecord ? (r) => <RetractButton order={o} result={r} /> : undefined} />
        </Card>
      )}
      {(o.report_file_id || (canRecord && !closed)) && (
        <Card title={t('results.labReportTitle')}>
          <Space wrap>
            {o.report_file_id && (
              <Button icon={<FileOutlined aria-hidden />} href={`/api/patients/${o.patient_id}/files/${o.report_file_id}`} download data-testid="lab-report">
                {t('results.openLabReport')}
              </Button>
            )}
            {canRecord && !closed && (
              <Upload accept=".pdf,image/*" showUploadList={false} beforeUpload={(f) => (attach.mutate({ file: f, version: o.version }, { onSuccess: () => void message.success(t('results.labReportAttached')) }), false)}>
                <Button icon={<UploadOutlined aria-hidden />} loading={attach.isPending} style={{ whiteSpace: 'normal', height: 'auto', textAlign: 'start' }}>
                  {o.report_file_id ? t('results.replaceLabReport') : t('results.attachLabReport')}
                </Button>
              </Upload>
            )}
          </Space>
        </Card>
      )}
      {canRecord && !closed && <RecordForm key={o.version} order={o} patient={patient.data} />}
      {(o.replaced?.length ?? 0) > 0 && (
        <Card title={t('results.replacedTitle')}>
          <ResultsTable results={o.replaced!} showTime />
        </Card>
      )}
      <OrderAlerts alerts={o.alerts} />
      <Card title={t('results.historyTitle')}>
        <Timeline
          items={(o.events ?? []).map((e, i) => ({
            key: i,
            content: (
              <>
                <Typography.Text strong>{t(`results.events.${e.status}`)}</Typography.Text> · {formatDayTime(e.at)}
                {e.by_name && <> · {e.by_name}</>}
                {e.reason && (
                  <div>
                    <Typography.Text type="secondary">{e.reason}</Typography.Text>
                  </div>
                )}
              </>
            ),
          }))}
        />
      </Card>
    </Space>
  )
}
