import { Input, Modal } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { focusFirstField } from '../../../components/focusFirstField'
import { fullName } from '../../../lib/patient'
import type { Appointment } from '../api/types'

/** Asks why an appointment is cancelled (required) before cancelling it. */
export function CancelModal({ appointment, busy, onCancel, onClose }: { appointment: Appointment | null; busy: boolean; onCancel: (a: Appointment, reason: string) => void; onClose: () => void }) {
  const { t } = useTranslation()
  const [reason, setReason] = useState('')
  return (
    <Modal
      afterOpenChange={(open) => (open ? focusFirstField(open) : setReason(''))}
      open={appointment !== null}
      title={t('appointments.cancelTitle', { name: appointment ? fullName(appointment.patient) : '' })}
      okText={t('appointments.actions.cancel')}
      okButtonProps={{ danger: true, disabled: reason.trim() === '' }}
      cancelText={t('appointments.keep')}
      confirmLoading={busy}
      onCancel={onClose}
      onOk={() => appointment && onCancel(appointment, reason)}
      destroyOnHidden
    >
      <Input.TextArea aria-label={t('appointments.cancelReason')} placeholder={t('appointments.cancelReason')} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} autoFocus />
    </Modal>
  )
}
