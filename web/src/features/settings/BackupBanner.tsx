import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useCan } from '../../lib/auth/can'
import { Alert } from '../../light/Alert'
import { Button } from '../../light/Button'
import { useBackups } from './api/getBackups'

/** For administrators: the scheduled backups are late, or the last one failed. */
export function BackupBanner() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const can = useCan('manage settings')
  const { data } = useBackups(can)
  if (!can || !data?.enabled || (!data.overdue && !data.last_failure)) return null
  return (
    <Alert
      type="warning"
      data-testid="backup-banner"
      title={data.last_failure ? t('backups.bannerFailed') : t('backups.banner')}
      action={
        <Button onClick={() => navigate('/administrator/backups')}>
          {t('backups.open')}
        </Button>
      }
    />
  )
}
