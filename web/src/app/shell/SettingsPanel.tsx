import { lazy, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { CrossIcon, SettingIcon } from '../../light/icons'
import { useOpenedOnce } from '../../lib/openedOnce'
import styles from './shell.module.css'

const SettingsDrawer = lazy(() => import('./SettingsDrawer'))

/** The layout settings panel (spec §2): theme colour, tag tabs, fixed header, sidebar logo. */
export function SettingsPanel() {
  const { t } = useTranslation()
  const [open, setOpen] = useState(false)
  const opened = useOpenedOnce(open)

  return (
    <>
      <button type="button" className={styles.settingsButton} onClick={() => setOpen(!open)} aria-label={t('settings.title')} aria-haspopup="dialog" aria-expanded={open}>
        {open ? <CrossIcon /> : <SettingIcon />}
      </button>
      {opened && (
        <Suspense fallback={null}>
          <SettingsDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  )
}
