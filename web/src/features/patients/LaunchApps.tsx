import { useTranslation } from 'react-i18next'
import { MenuButton } from '../../light/MenuButton'
import { AppstoreIcon } from './icons'
import styles from './chart.module.css'
import { launchApp } from './api/launchApp'
import { useLaunchableApps } from './api/smartApps'

/**
 * The chart's SMART apps (a growth chart, a risk calculator): each opens in a new tab with
 * this patient in context, once the user approves what it asks for.
 */
export function LaunchApps({ patientId }: { patientId: number }) {
  const { t } = useTranslation()
  const apps = useLaunchableApps(true)
  if (!apps.data?.length) return null
  const open = (appId: number) => {
    // The tab is opened at the click (a browser lets only a click open one), then sent on.
    const tab = window.open('about:blank', '_blank')
    void launchApp(appId, patientId).then(
      (url) => (tab ? tab.location.assign(url) : window.location.assign(url)),
      () => tab?.close(), // the app's error toast has said why
    )
  }
  return (
    <MenuButton label={t('patients.apps')} look="button" items={apps.data.map((a) => ({ key: String(a.id), label: a.name }))} onSelect={(key) => open(Number(key))}>
      <span className={styles.buttonIcon} aria-hidden>
        <AppstoreIcon />
      </span>
      {t('patients.apps')}
    </MenuButton>
  )
}
