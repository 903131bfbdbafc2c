// Asks why an appointment is cancelled (required: the button waits for a reason) before cancelling it.
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { fullName } from '../../../lib/patient'
import { Button } from '../../../light/Button'
import { Dialog } from '../../../light/Dialog'
import { Field } from '../../../light/Field'
import { TextArea } from '../../../light/Input'
import type { Appointment } from '../api/types'

interface Props {
  appointment: Appointment | null
  busy: boolean
  onCancel: (a: Appointment, reason: string) => void
  onClose: () => void
}

export function CancelModal({ appointment, ...rest }: Props) {
  // Each appointment's dialog starts empty.
  return appointment && <CancelDialog key={appointment.id} appointment={appointment} {...rest} />
}

function CancelDialog({ appointment, busy, onCancel, onClose }: Omit<Props, 'appointment'> & { appointment: Appointment }) {
  const { t } = useTranslation()
  const [reason, setReason] = useState('')
  const blank = reason.trim() === ''
  return (
    <Dialog
      open
      title={t('appointments.cancelTitle', { name: fullName(appointment.patient) })}
      closeLabel={t('app.icons.close')}
      onClose={onClose}
      busy={busy}
      onSubmit={() => !blank && onCancel(appointment, reason)}
      footer={
        <>
          <Button onClick={onClose} disabled={busy}>
            {t('appointments.keep')}
          </Button>
          <Button type="submit" variant="danger" disabled={blank || busy}>
            {t('appointments.actions.cancel')}
          </Button>
        </>
      }
    >
      <Field label={t('appointments.cancelReason')}>
        {(ids) => <TextArea {...ids} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />}
      </Field>
    </Dialog>
  )
}
