import { useTranslation } from 'react-i18next'
import { Button } from '../../../light/Button'
import { EditIcon } from '../../../light/icons'
import type { VisitMode } from './visitMode'

interface Props {
  mode: VisitMode
  /** A doctor may amend this signed visit. */
  canAmend: boolean
  /** Starts the visit of an arrived patient (a doctor's), when offered. */
  onStart?: () => void
  starting: boolean
  onSign: () => void
  signing: boolean
  onAmend: () => void
  onDiscard: () => void
  onSaveAmendment: () => void
}

/** The visit's actions for what its user may do now: start, sign, amend, discard or save an amendment. */
export function VisitActions({ mode, canAmend, onStart, starting, onSign, signing, onAmend, onDiscard, onSaveAmendment }: Props) {
  const { t } = useTranslation()
  return (
    <>
      {onStart && (
        <Button variant="primary" loading={starting} onClick={onStart}>
          {t('appointments.actions.start')}
        </Button>
      )}
      {mode === 'draft' && (
        <Button variant="primary" onClick={onSign} loading={signing}>
          {t('visit.sign')}
        </Button>
      )}
      {canAmend && (
        <Button icon={<EditIcon />} onClick={onAmend}>
          {t('visit.amend')}
        </Button>
      )}
      {mode === 'amend' && (
        <>
          <Button onClick={onDiscard}>{t('visit.discard')}</Button>
          <Button variant="primary" onClick={onSaveAmendment}>
            {t('visit.saveAmendment')}
          </Button>
        </>
      )}
    </>
  )
}
