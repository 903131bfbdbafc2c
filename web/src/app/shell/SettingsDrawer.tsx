import { useTranslation } from 'react-i18next'
import type { LayoutSettings } from '../../lib/settings'
import { Drawer } from '../../light/Drawer'
import { BgColorsIcon } from '../../light/icons'
import { Switch } from '../../light/Switch'
import { useToast } from '../../light/Toast'
import { useShell } from './state'
import styles from './shell.module.css'

/** Predefined theme colours, the spec's default first. */
export const THEME_PRESETS = ['#409EFF', '#1890FF', '#304156', '#212121', '#11A983', '#13C2C2', '#6959CD', '#F5222D']

/** The settings panel's drawer: the theme colour (suggested swatches or any colour) and three switches. */
export default function SettingsDrawer({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation()
  const toast = useToast()
  const { settings, setSettings } = useShell()
  const change = <K extends keyof LayoutSettings>(key: K, value: LayoutSettings[K]) => setSettings({ ...settings, [key]: value })
  const setTheme = (colour: string) => {
    change('theme', colour.toUpperCase())
    // One toast however many colours are tried: a new one replaces the last.
    toast.success(t('settings.themeChanged'), { key: 'theme-changed' })
  }

  return (
    <Drawer title={t('settings.title')} open={open} onClose={onClose} closeLabel={t('app.icons.close')}>
      <div className={styles.settingsTheme}>
        <span className={styles.settingsThemeTitle}>
          <BgColorsIcon /> {t('settings.theme')}
        </span>
        <div role="group" aria-label={t('settings.presets')} className={styles.swatches}>
          {THEME_PRESETS.map((c) => (
            <button
              key={c}
              type="button"
              className={styles.swatch}
              style={{ background: c }}
              aria-label={c}
              aria-pressed={settings.theme.toUpperCase() === c}
              onClick={() => setTheme(c)}
            />
          ))}
        </div>
        <label className={styles.settingsRow}>
          <span>{t('settings.customColour')}</span>
          {/* The browser's own colour picker; the theme changes once a colour is chosen. */}
          <input type="color" className={styles.colourInput} value={settings.theme.toLowerCase()} onChange={(e) => setTheme(e.target.value)} />
        </label>
      </div>
      <div className={styles.settingsRow}>
        <Switch checked={settings.tagsView} onChange={(v) => change('tagsView', v)}>
          {t('settings.tagsView')}
        </Switch>
      </div>
      <div className={styles.settingsRow}>
        <Switch checked={settings.fixedHeader} onChange={(v) => change('fixedHeader', v)}>
          {t('settings.fixedHeader')}
        </Switch>
      </div>
      <div className={styles.settingsRow}>
        <Switch checked={settings.sidebarLogo} onChange={(v) => change('sidebarLogo', v)}>
          {t('settings.sidebarLogo')}
        </Switch>
      </div>
    </Drawer>
  )
}
