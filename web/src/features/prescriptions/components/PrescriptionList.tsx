import { EditOutlined, PrinterOutlined, RetweetOutlined, StopOutlined } from '@ant-design/icons'
import { App, Button, Empty, Input, List, Modal, Space, Tag, Typography } from 'antd'
import { memo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { ApiError } from '../../../lib/api'
import { useCancelPrescription } from '../api/cancelPrescription'
import { usePrescriptions } from '../../../lib/queries/prescriptions'
import { editable, printPath, type Item, type Owner, type Prescription } from '../api/types'
import { focusFirstField } from '../../../components/focusFirstField'
import { formatDayTime } from '../../../lib/time'
import { prescriptionStatusLabel } from '../../../lib/labels'
import { ListMeta } from '../../../components/ListMeta'

const STATUS_COLORS: Record<Prescription['status'], string> = { draft: 'gold', ordered: 'gold', issued: 'green', dispensed: 'green', cancelled: 'default' }

export function StatusTag({ status }: { status: Prescription['status'] }) {
  const { t } = useTranslation()
  return <Tag color={STATUS_COLORS[status]}>{t(prescriptionStatusLabel[status])}</Tag>
}

/** One line as words: "Amoxicillin 500 mg capsule — 1 capsule, oral, 3 times a day, 7 days, 21 capsule". */
export function useLineText() {
  const { t } = useTranslation()
  return (it: Item) =>
    [it.dose, it.route && t(`rx.routes.${it.route}`), it.frequency, it.duration, it.quantity && (it.unit ? t('rx.qtyOf', { quantity: it.quantity, unit: it.unit }) : t('rx.qtyOnly', { quantity: it.quantity })), it.refills > 0 && t('rx.refillsN', { count: it.refills })]
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
  const { message } = App.useApp()
  const { data, isLoading } = usePrescriptions(owner)
  const cancel = useCancelPrescription()
  const [cancelling, setCancelling] = useState<Prescription>()
  const [reason, setReason] = useState('')
  const [reasonError, setReasonError] = useState<string>()
  const lineText = useLineText()

  const confirmCancel = async () => {
    if (!cancelling) return
    try {
      await cancel.mutateAsync({ rx: cancelling, reason })
      message.success(t('rx.cancelled'))
      setCancelling(undefined)
    } catch (e) {
      if (e instanceof ApiError) setReasonError(e.display)
    }
  }

  if (!isLoading && !data?.length) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('rx.none')} />
  return (
    <>
      <List
        loading={isLoading}
        dataSource={data ?? []}
        rowKey="id"
        renderItem={(rx) => (
          <List.Item data-testid="rx-item">
            <ListMeta
              title={
                <Space wrap size={4}>
                  <span>{t('rx.number', { id: rx.id })}</span>
                  <StatusTag status={rx.status} />
                  <Typography.Text type="secondary">{formatDayTime(rx.issued_at ?? rx.created_at)}</Typography.Text>
                  {showPatient && <Typography.Text>{rx.patient ? `${rx.patient.name} (${rx.patient.mrn})` : t('rx.blankPad')}</Typography.Text>}
                </Space>
              }
              description={
                <>
                  {rx.items.map((it, i) => (
                    <div key={i}>
                      <Typography.Text strong>{it.medicine}</Typography.Text> — {lineText(it)}
                    </div>
                  ))}
                  {rx.status === 'cancelled' && <Typography.Text type="secondary">{t('rx.cancelReason', { reason: rx.cancel_reason })}</Typography.Text>}
                  <Space wrap size={[4, 0]} style={{ marginTop: 4 }}>
                    <Link to={printPath(rx)} style={{ padding: '0 7px', whiteSpace: 'nowrap' }}>
                      <PrinterOutlined aria-hidden /> {rx.status === 'cancelled' ? t('rx.open') : t('rx.print')}
                    </Link>
                    {canWrite && editable(rx) && onEdit && (
                      <Button type="link" size="small" icon={<EditOutlined aria-hidden />} onClick={() => onEdit(rx)}>
                        {t('rx.edit')}
                      </Button>
                    )}
                    {canWrite && rx.status !== 'cancelled' && (
                      <Button type="link" size="small" danger icon={<StopOutlined aria-hidden />} onClick={() => (setCancelling(rx), setReason(''), setReasonError(undefined))}>
                        {t('rx.cancel')}
                      </Button>
                    )}
                    {canWrite && rx.status === 'cancelled' && onReplace && (
                      <Button type="link" size="small" icon={<RetweetOutlined aria-hidden />} onClick={() => onReplace(rx)}>
                        {t('rx.replace')}
                      </Button>
                    )}
                  </Space>
                </>
              }
            />
          </List.Item>
        )}
      />
      <Modal afterOpenChange={focusFirstField} open={!!cancelling} title={t('rx.cancelTitle')} okText={t('rx.cancel')} okButtonProps={{ danger: true, loading: cancel.isPending }} cancelText={t('rx.close')} onOk={() => void confirmCancel()} onCancel={() => setCancelling(undefined)}>
        <Typography.Paragraph>{t('rx.cancelHint')}</Typography.Paragraph>
        <Input.TextArea aria-label={t('rx.reason')} placeholder={t('rx.reason')} value={reason} onChange={(e) => setReason(e.target.value)} status={reasonError ? 'error' : undefined} />
        {reasonError && <Typography.Text type="danger">{reasonError}</Typography.Text>}
      </Modal>
    </>
  )
})
