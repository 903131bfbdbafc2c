// The component library's provider for the screens still built on it, loaded with the library
// and its compiled style sheet (docs/adr/0036) the first time such a screen opens: a light
// screen (route meta.light) and the frame load neither. It follows the frame's language, size
// setting and clinic theme.
import { App as AntApp, ConfigProvider, theme as antTheme } from 'antd'
import type { Locale } from 'antd/es/locale'
import enUS from 'antd/locale/en_US'
import ruRU from 'antd/locale/ru_RU'
import viVN from 'antd/locale/vi_VN'
import zhCN from 'antd/locale/zh_CN'
import 'antd/dist/antd.css'
import { useSyncExternalStore, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { currentLanguage, type Language } from '../../lib/i18n'
import type { Size } from '../../lib/settings'
import { themeFor } from '../../lib/theme'
import { buttonConfig } from './antdConfig'
import { useShell } from './state'

const antdLocales: Record<Language, Locale> = { en: enUS, ru: ruRU, zh: zhCN, vi: viVN }
/** The size selector's four sizes on Ant Design's three, with the compact algorithm for Mini. */
const componentSizes: Record<Size, 'large' | 'middle' | 'small'> = { default: 'large', medium: 'middle', small: 'small', mini: 'small' }

export default function AntdProvider({ children }: { children: ReactNode }) {
  // The language comes with i18n's changes (a render on each); the provider follows it.
  useTranslation()
  const lang = currentLanguage()
  const { settings, size } = useShell()
  const theme = themeFor(settings.theme)
  const reducedMotion = useReducedMotion()
  return (
    <ConfigProvider
      locale={antdLocales[lang]}
      componentSize={componentSizes[size]}
      button={buttonConfig}
      theme={{
        ...theme,
        token: { ...theme.token, motion: !reducedMotion },
        zeroRuntime: true,
        algorithm: size === 'mini' ? [antTheme.defaultAlgorithm, antTheme.compactAlgorithm] : antTheme.defaultAlgorithm,
      }}
    >
      <AntApp>{children}</AntApp>
    </ConfigProvider>
  )
}

/** Whether the user's system asks for less motion (and follows it when that changes). */
function useReducedMotion() {
  const query = '(prefers-reduced-motion: reduce)'
  return useSyncExternalStore(
    (changed) => {
      const list = window.matchMedia(query)
      list.addEventListener('change', changed)
      return () => list.removeEventListener('change', changed)
    },
    () => window.matchMedia(query).matches,
  )
}
