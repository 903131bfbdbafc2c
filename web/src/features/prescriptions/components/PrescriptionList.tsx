import { memo, useCallback, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../../lib/api'
import { useCancelPrescription } from '../api/cancelPrescription'
import { usePrescriptions } from '../../../lib/queries/prescriptions'
import { editable, printPath, type Item, type Owner, type Prescription } from '../api/types'
import { formatDayTime } from '../../../lib/time'
import { prescriptionStatusLabel } from '../../../lib/labels'
import { Button } from '../../../light/Button'
import { Dialog } from '../../../light/Dialog'
import { Empty } from '../../../light/Empty'
import { EditIcon, PrinterIcon, StopIcon } from '../../../light/icons'
import { RetweetIcon } from './icons'
import { TextArea } from '../../../light/Input'
import { Spin } from '../../../light/Spin'
import { Tag } from '../../../light/Tag'
import { useToast } from '../../../light/Toast'
import styles from './PrescriptionList.module.css'

const STATUS_COLORS: Record<Prescription['status'], string> = { draft: 'gold', ordered: 'gold', issued: 'green', dispensed: 'green', cancelled: 'default' }

export function StatusTag({ status }: { status: Prescription['status'] }) {
  const { t } = useTranslation()
  return <Tag color={STATUS_COLORS[status]}>{t(prescriptionStatusLabel[status])}</Tag>
}

/** One line as words: "Amoxicillin 500 mg capsule — 1 capsule, oral, 3 times a day, 7 days, 21 capsule". */
export function useLineText() {
  const { t } = useTranslation()
  return (it: Item) =>
    [it.dose, it.route && t(`rx.routes.${it.route}`, { defaultValue: it.route }), it.frequency, it.duration, it.quantity && (it.unit ? t('rx.qtyOf', { quantity: it.quantity, unit: it.unit }) : t('rx.qtyOnly', { quantity: it.quantity })), it.refills > 0 && t('rx.refillsN', { count: it.refills })]
      .filter(Boolean)
      .join(', ')
}

interface Props {
  owner: Owner
  canWrite: boolean
  onEdit?(rx: Prescription): void
  onReplace?(rx: Prescription): void
  /** Show whose prescription each is (lists that mix patients). */
  showPatient?: boolean
}

/** Prescriptions, newest first, with their status and lines; writers can edit, print, cancel and replace them. */
export const PrescriptionList = memo(function PrescriptionList({ owner, canWrite, onEdit, onReplace, showPatient }: Props) {
  const { t } = useTranslation()
  const toast = useToast()
  const { data, isLoading } = usePrescriptions(owner)
  const cancel = useCancelPrescription()
  const [cancelling, setCancelling] = useState<Prescription>()
  const [reason, setReason] = useState('')
  const [reasonError, setReasonError] = useState<string>()
  const openCancel = useCallback((rx: Prescription) => (setCancelling(rx), setReason(''), setReasonError(undefined)), [])

  const confirmCancel = async () => {
    if (!cancelling) return
    try {
      await cancel.mutateAsync({ rx: cancelling, reason })
      toast.success(t('rx.cancelled'))
      setCancelling(undefined)
    } catch (e) {
      if (e instanceof ApiError) setReasonError(e.display)
    }
  }

  if (!isLoading && !data?.length)
    return (
      <Empty small>
        {t('rx.none')}
      </Empty>
    )
  return (
    <>
      {isLoading && (
        <div className={styles.loading}>
          <Spin />
        </div>
      )}
      <ul className={styles.list}>
        {(data ?? []).map((rx) => (
          <Row key={rx.id} rx={rx} canWrite={canWrite} showPatient={showPatient} onEdit={onEdit} onReplace={onReplace} onCancel={openCancel} />
        ))}
      </ul>
      <Dialog
        open={!!cancelling}
        title={t('rx.cancelTitle')}
        closeLabel={t('app.icons.close')}
        onClose={() => setCancelling(undefined)}
        busy={cancel.isPending}
        footer={
          <>
            <Button onClick={() => setCancelling(undefined)} disabled={cancel.isPending}>
              {t('rx.close')}
            </Button>
            <Button variant="danger" loading={cancel.isPending} onClick={() => void confirmCancel()}>
              {t('rx.cancel')}
            </Button>
          </>
        }
      >
        <p className={styles.paragraph}>{t('rx.cancelHint')}</p>
        {/* Named by its placeholder's words, as before: the reason is the dialog's one field. */}
        <TextArea aria-label={t('rx.reason')} placeholder={t('rx.reason')} value={reason} onChange={(e) => setReason(e.target.value)} aria-invalid={reasonError ? true : undefined} aria-describedby={reasonError ? 'rx-cancel-error' : undefined} />
        {reasonError && (
          <div id="rx-cancel-error" className={styles.error}>
            {reasonError}
          </div>
        )}
      </Dialog>
    </>
  )
})

interface RowProps {
  rx: Prescription
  canWrite: boolean
  showPatient?: boolean
  onEdit?(rx: Prescription): void
  onReplace?(rx: Prescription): void
  onCancel(rx: Prescription): void
}

/** One prescription of the list: memoised, so opening the cancel dialog or the editor leaves the others as they are. */
const Row = memo(function Row({ rx, canWrite, showPatient, onEdit, onReplace, onCancel }: RowProps) {
  const { t } = useTranslation()
  const lineText = useLineText()
  return (
    <li className={styles.item} data-testid="rx-item">
      <div className={styles.title}>
        <span>{t('rx.number', { id: rx.id })}</span>
        <StatusTag status={rx.status} />
        <span className={styles.muted}>{formatDayTime(rx.issued_at ?? rx.created_at)}</span>
        {showPatient && <span className={styles.patient}>{rx.patient ? `${rx.patient.name} (${rx.patient.mrn})` : t('rx.blankPad')}</span>}
      </div>
      <div className={styles.description}>
        {rx.items.map((it, i) => (
          <div key={i}>
            <strong>{it.medicine}</strong> — {lineText(it)}
          </div>
        ))}
        {rx.status === 'cancelled' && <span>{t('rx.cancelReason', { reason: rx.cancel_reason })}</span>}
        <div className={styles.actions}>
          <Link to={printPath(rx)} className={styles.link}>
            <PrinterIcon /> {rx.status === 'cancelled' ? t('rx.open') : t('rx.print')}
          </Link>
          {canWrite && editable(rx) && onEdit && (
            <Button variant="link" size="small" icon={<EditIcon />} onClick={() => onEdit(rx)}>
              {t('rx.edit')}
            </Button>
          )}
          {canWrite && rx.status !== 'cancelled' && (
            <Button variant="dangerText" size="small" icon={<StopIcon />} onClick={() => onCancel(rx)}>
              {t('rx.cancel')}
            </Button>
          )}
          {canWrite && rx.status === 'cancelled' && onReplace && (
            <Button variant="link" size="small" icon={<RetweetIcon />} onClick={() => onReplace(rx)}>
              {t('rx.replace')}
            </Button>
          )}
        </div>
      </div>
    </li>
  )
})
