// The documents of a visit or a chart on the light components: the issued ones (print again,
// cancel with a reason) and, for doctors, the dialog that issues a new one.
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useAskReason } from '../../../components/askReason'
import { ApiError } from '../../../lib/api'
import { useCan } from '../../../lib/auth/can'
import { formatDayTime } from '../../../lib/time'
import { Button } from '../../../light/Button'
import { Card } from '../../../light/Card'
import { Empty } from '../../../light/Empty'
import { PrinterIcon, StopIcon } from '../../../light/icons'
import { FileAddIcon } from './icons'
import { Spin } from '../../../light/Spin'
import { Tag } from '../../../light/Tag'
import { useToast } from '../../../light/Toast'
import { useCancelDocument } from '../api/cancelDocument'
import { useDocuments, type Owner } from '../api/documents'
import { printPath, type ClinicalDocument } from '../api/types'
import styles from './documents.module.css'
import { IssueDocument } from './IssueDocument'

interface Props {
  patientId: number
  appointmentId?: number
  /** A cancelled or missed visit issues nothing. */
  closed?: boolean
}

/** The documents card of a visit or a chart: issued documents (print again, cancel) and, for doctors, a new one. */
export function DocumentsCard({ patientId, appointmentId, closed }: Props) {
  const { t } = useTranslation()
  const canIssue = useCan('issue documents')
  const owner: Owner = appointmentId !== undefined ? { appointmentId } : { patientId }
  const { data, isLoading } = useDocuments(owner)
  const [issuing, setIssuing] = useState(false)
  const list = data ?? []
  return (
    <Card
      look="panel"
      level={3}
      title={t('documents.title')}
      data-testid="documents"
      extra={
        canIssue &&
        !closed && (
          <Button size="small" icon={<FileAddIcon />} onClick={() => setIssuing(true)}>
            {t('documents.issue')}
          </Button>
        )
      }
    >
      {isLoading ? (
        <div className={styles.loading}>
          <Spin />
        </div>
      ) : list.length === 0 ? (
        <Empty small>{t('documents.none')}</Empty>
      ) : (
        <ul className={styles.list}>
          {list.map((d) => (
            <DocumentItem key={d.id} doc={d} canCancel={canIssue} />
          ))}
        </ul>
      )}
      {canIssue && <IssueDocument patientId={patientId} appointmentId={appointmentId} open={issuing} onClose={() => setIssuing(false)} />}
    </Card>
  )
}

/** One issued document: its title in its own language, its state, number, time and doctor; print and cancel while issued. */
function DocumentItem({ doc: d, canCancel }: { doc: ClinicalDocument; canCancel: boolean }) {
  const { t } = useTranslation()
  const toast = useToast()
  const cancel = useCancelDocument()
  const ask = useAskReason()
  return (
    <li className={styles.item} data-testid="document-item">
      <div className={styles.title}>
        <span lang={d.language}>{d.title}</span>
        <Tag color={d.status === 'issued' ? 'green' : 'default'}>{t(`documents.status.${d.status}`)}</Tag>
      </div>
      <div className={styles.description}>
        <span className={styles.secondary}>
          {d.number} · {formatDayTime(d.issued_at)} · {d.doctor.name}
          {d.status === 'cancelled' && d.cancel_reason && ` · ${d.cancel_reason}`}
        </span>
        {d.status === 'issued' && (
          <div className={styles.actions}>
            <Link to={printPath(d)} aria-label={t('documents.printNamed', { number: d.number })}>
              <span className={styles.icon} aria-hidden>
                <PrinterIcon />
              </span>
              {t('documents.print')}
            </Link>
            {canCancel && (
              <Button
                variant="dangerText"
                size="small"
                className={styles.cancel}
                icon={<StopIcon />}
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
                        () => toast.success(t('documents.cancelled')),
                        (e) => e instanceof ApiError && toast.error(e.display),
                      ),
                  })
                }
              >
                {t('documents.cancel')}
              </Button>
            )}
          </div>
        )}
      </div>
    </li>
  )
}
