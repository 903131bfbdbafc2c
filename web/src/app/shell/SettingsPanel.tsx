import { CloseOutlined, SettingOutlined } from '@ant-design/icons'
import { Button } from 'antd'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
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
      <Button
        type="primary"
        className={styles.settingsButton}
        icon={open ? <CloseOutlined aria-hidden /> : <SettingOutlined aria-hidden />}
        onClick={() => setOpen(!open)}
        aria-label={t('settings.title')}
      />
      {opened && (
        <Suspense fallback={null}>
          <SettingsDrawer open={open} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  )
}
