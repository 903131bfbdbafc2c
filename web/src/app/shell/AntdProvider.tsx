// The component library's provider for the screens still built on it, loaded with the library
// and its compiled style sheet (docs/adr/0036) the first time such a screen opens: a light
// screen (route meta.light) and the frame load neither. It follows the frame's language, size
// setting and clinic theme.
import { App as AntApp, ConfigProvider, message as antMessage, notification as antNotification, theme as antTheme } from 'antd'
// The context App.useApp() reads (antd/es/app/context: the library's own, with no other export).
import AppContext, { type useAppProps } from 'antd/es/app/context'
// The stacking the library's dialogs and popups count from (antd/es/_util: its own, with no other export).
import ZIndexContext from 'antd/es/_util/zindexContext'
import type { Locale } from 'antd/es/locale'
import enUS from 'antd/locale/en_US'
import ruRU from 'antd/locale/ru_RU'
import viVN from 'antd/locale/vi_VN'
import zhCN from 'antd/locale/zh_CN'
import 'antd/dist/antd.css'
import { useContext, useEffect, useMemo, type ReactNode } from 'react'
import { useMediaQuery } from '../../lib/media'
import { useTranslation } from 'react-i18next'
import { currentLanguage, type Language } from '../../lib/i18n'
import type { Size } from '../../lib/settings'
import { themeFor } from '../../lib/theme'
import { buttonConfig } from './antdConfig'
import { useShell } from './state'
import { createStore } from '../../lib/store'
import { markLibraryShown } from '../../lib/withAntd'

const antdLocales: Record<Language, Locale> = { en: enUS, ru: ruRU, zh: zhCN, vi: viVN }
/** The size selector's four sizes on Ant Design's three, with the compact algorithm for Mini. */
const componentSizes: Record<Size, 'large' | 'middle' | 'small'> = { default: 'large', medium: 'middle', small: 'small', mini: 'small' }

/** The toasts of the one host the shell keeps (ToastHost), once it is there. */
type Shared = Pick<useAppProps, 'message' | 'notification'>
const shared = createStore<Shared | null>(null)

/**
 * The library's message and notification toasts, held once beside the page area rather than in
 * each screen's provider: a toast a screen raises as it closes ("Template saved", then the editor
 * gives way to the saved template's page) outlives the screen, as it did when one provider
 * wrapped the whole layout. The shell mounts it once a screen on the library has shown.
 */
export function ToastHost() {
  const [message, messageHolder] = antMessage.useMessage()
  const [notification, notificationHolder] = antNotification.useNotification()
  useEffect(() => {
    shared.set({ message, notification })
    return () => shared.set(null)
  }, [message, notification])
  return (
    <Configured>
      {messageHolder}
      {notificationHolder}
    </Configured>
  )
}

/** Each screen's App, whose message and notification are the shared host's once it is there. */
function SharedToasts({ children }: { children: ReactNode }) {
  const own = useContext(AppContext)
  const host = shared.use()
  const value = useMemo(() => (host ? { ...own, ...host } : own), [own, host])
  return <AppContext.Provider value={value}>{children}</AppContext.Provider>
}

/** `layer`: the z-index of the light modal panel the part is in (lib/withAntd), which its dialogs and popups open above. */
export default function AntdProvider({ children, layer }: { children: ReactNode; layer?: number }) {
  useEffect(markLibraryShown, [])
  const inner = <SharedToasts>{children}</SharedToasts>
  return (
    <Configured>
      <AntApp>{layer === undefined ? inner : <ZIndexContext.Provider value={layer}>{inner}</ZIndexContext.Provider>}</AntApp>
    </Configured>
  )
}

/** The library's configuration: the frame's language, size setting and clinic theme. */
function Configured({ children }: { children: ReactNode }) {
  // The language comes with i18n's changes (a render on each); the provider follows it.
  useTranslation()
  const lang = currentLanguage()
  const { settings, size } = useShell()
  const theme = themeFor(settings.theme)
  const reducedMotion = useMediaQuery('(prefers-reduced-motion: reduce)')
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
      {children}
    </ConfigProvider>
  )
}
