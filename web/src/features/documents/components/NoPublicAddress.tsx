import { useTranslation } from 'react-i18next'
import { useClinic } from '../../../lib/clinic'
import { Alert } from '../../../light/Alert'

/**
 * Warns, on the screen and never on the paper, that a document's QR code and link will point
 * at the address staff browse (often one only the clinic's network reaches), because Clinic →
 * "Public address" is not set: the patient, an employer or a school could not check it.
 */
export function NoPublicAddress() {
  const { t } = useTranslation()
  const { data: clinic } = useClinic()
  if (!clinic || clinic.public_url) return null
  return <Alert type="warning" data-testid="no-public-address" title={t('documents.noPublicUrl', { address: window.location.origin })} description={t('documents.noPublicUrlHint')} />
}
