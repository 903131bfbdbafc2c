// Notices above every page: the role being previewed (with the way back), emergency access
// in force (why, until when, and that everything is flagged), and, for administrators, late or
// failed scheduled backups.
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { BackupBanner } from '../../features/settings/BackupBanner'
import type { Me } from '../../lib/auth/me'
import { stopPreview, usePreview } from '../../lib/auth/preview'
import { Slot } from '../../lib/slots'
import { formatDayTime } from '../../lib/time'
import { Alert } from '../../light/Alert'
import { Button } from '../../light/Button'
import styles from './shell.module.css'

export function Banners({ me }: { me: Me }) {
  const { t } = useTranslation()
  const preview = usePreview()
  const navigate = useNavigate()
  return (
    <div className={styles.banners}>
      <BackupBanner />
      <Slot name="criticalAlerts" />
      {preview && (
        <Alert
          type="info"
          data-testid="preview-banner"
          title={t('preview.banner', { role: t(`roles.${preview.role}`, { defaultValue: preview.role }) })}
          description={t('preview.bannerHint')}
          action={
            <Button
              variant="primary"
              data-testid="preview-exit"
              onClick={() => {
                stopPreview()
                navigate('/permission/page')
              }}
            >
              {t('preview.exit')}
            </Button>
          }
        />
      )}
      {me.emergency && (
        <Alert
          type="error"
          data-testid="emergency-banner"
          title={t('emergency.banner', { until: formatDayTime(me.emergency.expires_at), by: me.emergency.granted_by })}
          description={`${t('emergency.reasonLabel')}: ${me.emergency.reason}. ${t('emergency.flagged')}`}
        />
      )}
    </div>
  )
}
