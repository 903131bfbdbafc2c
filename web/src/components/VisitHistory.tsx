import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useCan } from '../lib/auth/can'
import { usePatientVisits } from '../lib/queries/patientVisits'
import { formatDayTime } from '../lib/time'
import { appointmentStatusColor, appointmentStatusLabel, appointmentTypeLabel } from '../lib/labels'
import { Empty } from '../light/Empty'
import { Pager } from '../light/Pager'
import { Spin } from '../light/Spin'
import { Tag } from '../light/Tag'
import list from './itemList.module.css'

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
  const total = history.data?.meta.total ?? 0
  if (history.isLoading)
    return (
      <div className={list.loading}>
        <Spin />
      </div>
    )
  return (
    <>
      {items.length === 0 ? (
        <Empty small>{t('history.empty')}</Empty>
      ) : (
        <ul className={list.list}>
          {items.map((a) => {
            const when = formatDayTime(a.starts_at)
            const opens = canOpen && (a.status === 'in-progress' || a.status === 'completed')
            return (
              <li key={a.id} className={list.item}>
                <div className={`${list.meta} ${list.lines}`}>
                  <div className={list.row}>
                    {opens ? <Link to={`/appointments/form/${a.id}`}>{when}</Link> : <strong className={list.strong}>{when}</strong>}
                    <Tag color={appointmentStatusColor[a.status]}>{t(appointmentStatusLabel[a.status])}</Tag>
                    {a.visit_status === 'signed' && <Tag color="cyan">{t('history.signed')}</Tag>}
                  </div>
                  <span className={list.secondary}>
                    {a.doctor_name} · {t(appointmentTypeLabel[a.type])}
                    {a.reason && ` · ${a.reason}`}
                  </span>
                  {a.diagnoses?.map((d, i) => (
                    <span key={i} className={d.primary ? list.strong : undefined}>
                      {d.code ? `${d.code} ${d.label ?? ''}` : d.text}
                      {` (${d.primary ? t('history.primary') : t('history.secondary')})`}
                    </span>
                  ))}
                </div>
              </li>
            )
          })}
        </ul>
      )}
      {total > pageSize && (
        <div className={list.pager}>
          <Pager page={page} pageSize={pageSize} total={total} pageSizes={[pageSize]} onChange={(p) => setPage(p)} />
        </div>
      )}
    </>
  )
}
