import { BgColorsOutlined } from '@ant-design/icons'
import { App, ColorPicker, Drawer, Switch } from 'antd'
import { useTranslation } from 'react-i18next'
import type { LayoutSettings } from '../../lib/settings'
import { useShell } from './state'
import styles from './shell.module.css'

/** Predefined theme colours, the spec's default first. */
export const THEME_PRESETS = ['#409EFF', '#1890FF', '#304156', '#212121', '#11A983', '#13C2C2', '#6959CD', '#F5222D']

/** The settings panel's drawer: loaded when the panel is first opened (its colour picker is not small). */
export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { settings, setSettings } = useShell()
  const change = <K extends keyof LayoutSettings>(key: K, value: LayoutSettings[K]) => setSettings({ ...settings, [key]: value })

  return (
    <Drawer title={t('settings.title')} open={open} onClose={onClose} size={260} styles={{ wrapper: { maxWidth: 260 } }}>
      <div className={styles.settingsRow}>
        <span>
          <BgColorsOutlined aria-hidden /> {t('settings.theme')}
        </span>
        <ColorPicker
          value={settings.theme}
          disabledAlpha
          presets={[{ label: t('settings.presets'), colors: THEME_PRESETS }]}
          onChangeComplete={(c) => {
            change('theme', c.toHexString().toUpperCase())
            // One toast however many colours are tried: a new one replaces the last.
            void message.success({ content: t('settings.themeChanged'), key: 'theme-changed' })
          }}
          aria-label={t('settings.theme')}
        />
      </div>
      <label className={styles.settingsRow}>
        <span>{t('settings.tagsView')}</span>
        <Switch checked={settings.tagsView} onChange={(v) => change('tagsView', v)} />
      </label>
      <label className={styles.settingsRow}>
        <span>{t('settings.fixedHeader')}</span>
        <Switch checked={settings.fixedHeader} onChange={(v) => change('fixedHeader', v)} />
      </label>
      <label className={styles.settingsRow}>
        <span>{t('settings.sidebarLogo')}</span>
        <Switch checked={settings.sidebarLogo} onChange={(v) => change('sidebarLogo', v)} />
      </label>
    </Drawer>
  )
}
