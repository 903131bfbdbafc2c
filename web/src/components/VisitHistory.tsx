import { Empty, List, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useCan } from '../lib/auth/can'
import { usePatientVisits } from '../lib/queries/patientVisits'
import { formatDayTime } from '../lib/time'
import { appointmentStatusColor, appointmentStatusLabel, appointmentTypeLabel } from '../lib/labels'


/**
 * A patient's visits, newest first, with their diagnoses for those who may read visits (the
 * server leaves them out for others). Used by the patient's chart and beside the diagnosis form.
 */
export function VisitHistory({ patientId, before, pageSize = 10 }: { patientId: number; before?: { id: number; startsAt: string }; pageSize?: number }) {
  const { t } = useTranslation()
  const [page, setPage] = useState(1)
  const canDiagnose = useCan('write diagnosis')
  const canVitals = useCan('record vitals')
  const canOpen = canDiagnose || canVitals
  const history = usePatientVisits({ patient_id: patientId, page, per_page: pageSize })
  // Beside a visit: only the ones before it.
  const items = (history.data?.data ?? []).filter((a) => !before || (a.id !== before.id && a.starts_at < before.startsAt))
  return (
    <List
      loading={history.isLoading}
      dataSource={items}
      locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('history.empty')} /> }}
      pagination={(history.data?.meta.total ?? 0) > pageSize ? { current: page, pageSize, total: history.data?.meta.total, onChange: setPage, size: 'small' } : false}
      renderItem={(a) => {
        const when = formatDayTime(a.starts_at)
        const opens = canOpen && (a.status === 'in-progress' || a.status === 'completed')
        return (
          <List.Item>
            <Space orientation="vertical" size={2} style={{ width: '100%' }}>
              <Space wrap size={6}>
                {opens ? <Link to={`/appointments/form/${a.id}`}>{when}</Link> : <Typography.Text strong>{when}</Typography.Text>}
                <Tag color={appointmentStatusColor[a.status]}>{t(appointmentStatusLabel[a.status])}</Tag>
                {a.visit_status === 'signed' && <Tag color="cyan">{t('history.signed')}</Tag>}
              </Space>
              <Typography.Text type="secondary">
                {a.doctor_name} · {t(appointmentTypeLabel[a.type])}
                {a.reason && ` · ${a.reason}`}
              </Typography.Text>
              {a.diagnoses?.map((d, i) => (
                <Typography.Text key={i} strong={d.primary}>
                  {d.code ? `${d.code} ${d.label ?? ''}` : d.text}
                  {` (${d.primary ? t('history.primary') : t('history.secondary')})`}
                </Typography.Text>
              ))}
            </Space>
          </List.Item>
        )
      }}
    />
  )
}
