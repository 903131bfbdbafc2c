// What a queue row offers its user, by the appointment's status and the user's permissions:
// the next step as a button (arrive, start, vitals, the diagnosis form), the rest in a menu.
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useCan } from '../../../lib/auth/can'
import { fullName } from '../../../lib/patient'
import { Button } from '../../../light/Button'
import { DownIcon } from '../../../light/icons'
import type { MenuItem } from '../../../light/Menu'
import { MenuButton } from '../../../light/MenuButton'
import type { StatusAction } from '../api/changeStatus'
import type { Appointment } from '../api/types'
import styles from './queue.module.css'

export function RowActions({ a, onAct, onEdit, onCancel, onBill }: {
  a: Appointment
  onAct: (a: Appointment, action: StatusAction) => void
  onEdit: (a: Appointment) => void
  onCancel: (a: Appointment) => void
  /** Opens the visit's bill; absent for those who handle no bills. */
  onBill?: (a: Appointment) => void
}) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const canManage = useCan('manage appointment')
  const canDiagnose = useCan('write diagnosis')
  const canVitals = useCan('record vitals')
  const primary: ReactNode[] = []
  const more: (MenuItem & { onClick: () => void })[] = []
  const form = () => navigate(`/appointments/form/${a.id}`)
  const button = (key: string, label: string, onClick: () => void, variant: 'primary' | 'default' = 'primary') => (
    <Button key={key} size="small" variant={variant} onClick={onClick}>
      {label}
    </Button>
  )
  if (a.status === 'booked' && canManage) primary.push(button('arrive', t('appointments.actions.arrive'), () => onAct(a, 'arrive')))
  if (a.status === 'arrived' && canDiagnose) primary.push(button('start', t('appointments.actions.start'), () => onAct(a, 'start')))
  if (a.status === 'arrived' && canVitals && !canDiagnose) primary.push(button('vitals', t('appointments.actions.vitals'), form))
  if ((a.status === 'in-progress' || a.status === 'completed') && (canDiagnose || canVitals))
    primary.push(button('form', t('appointments.actions.diagnosis'), form, a.status === 'in-progress' ? 'primary' : 'default'))
  // The front desk's bill: once the patient is here (a doctor charges from the visit's form).
  if (onBill && (a.status === 'arrived' || a.status === 'in-progress' || a.status === 'completed')) {
    if (canDiagnose) more.push({ key: 'bill', label: t('bill.open'), onClick: () => onBill(a) })
    else primary.push(button('bill', t('bill.open'), () => onBill(a), a.status === 'completed' ? 'primary' : 'default'))
  }
  if (a.status === 'in-progress' && canDiagnose) more.push({ key: 'complete', label: t('appointments.actions.complete'), onClick: () => onAct(a, 'complete') })
  if ((a.status === 'booked' || a.status === 'arrived') && canManage) {
    more.push({ key: 'edit', label: t('appointments.actions.edit'), onClick: () => onEdit(a) })
    if (a.status === 'booked') more.push({ key: 'no-show', label: t('appointments.actions.noShow'), onClick: () => onAct(a, 'no-show') })
    more.push({ key: 'cancel', label: t('appointments.actions.cancel'), danger: true, onClick: () => onCancel(a) })
  }
  return (
    <div className={styles.actions}>
      {primary}
      {more.length > 0 && (
        <MenuButton look="small" align="end" floating label={t('appointments.moreFor', { name: fullName(a.patient) })} items={more} onSelect={(key) => more.find((m) => m.key === key)?.onClick()}>
          {t('appointments.more')}
          <span className={styles.caret} aria-hidden>
            <DownIcon />
          </span>
        </MenuButton>
      )}
    </div>
  )
}
