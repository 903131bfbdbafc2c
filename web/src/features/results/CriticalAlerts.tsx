// Critical results waiting for acknowledgement, above every page for whoever may acknowledge
// them: the ordering doctor's own, every escalated one for the covering role, and those at the
// second level for the medical lead (the server decides which). They arrive over
// the live channel within seconds, open a dialog at once, and stay until acknowledged — the
// server keeps them, so closing the tab or logging out skips nothing. A critical result
// withdrawn as entered in error stays too, said to be withdrawn (with why), until its order is
// reviewed: whoever was told of the value hears that it is gone.
// This part only watches (it is on every page); the banner's and the dialog's code loads with
// the first alert, on the light components (no library). Until it has loaded, or if it cannot load, the banner still says how many
// results wait, so a critical result is never hidden behind a download.
import { lazy, Suspense } from 'react'
import { useTranslation } from 'react-i18next'
import { LoadBoundary } from '../../components/LoadBoundary'
import { useCan } from '../../lib/auth/can'
import { Alert } from '../../light/Alert'
import { splitAlerts, useAlerts } from './api/listAlerts'

const CriticalAlertsBanner = lazy(() => import('./CriticalAlertsBanner'))

export function CriticalAlerts() {
  const { t } = useTranslation()
  const can = useCan('acknowledge critical results')
  const alerts = useAlerts(can)
  const list = alerts.data ?? []
  if (!can || list.length === 0) return null
  const { open, withdrawn } = splitAlerts(list)
  const waiting = (
    <Alert
      type="error"
      role="alert"
      data-testid="critical-banner"
      title={open.length > 0 ? t('results.criticalBanner', { count: open.length }) : withdrawn.length > 0 ? t('results.withdrawnBannerTitle') : t('results.misfiledAlertTitle')}
    />
  )
  return (
    <LoadBoundary fallback={waiting}>
      <Suspense fallback={waiting}>
        <CriticalAlertsBanner alerts={list} />
      </Suspense>
    </LoadBoundary>
  )
}
