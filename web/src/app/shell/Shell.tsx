// The logged-in application: Ant Design, the layout and every page. Loaded after login, so
// the login page does not carry it.
import { useQueryClient } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider, theme as antTheme } from 'antd'
import type { Locale } from 'antd/es/locale'
import enUS from 'antd/locale/en_US'
import ruRU from 'antd/locale/ru_RU'
import viVN from 'antd/locale/vi_VN'
import zhCN from 'antd/locale/zh_CN'
import dayjs from 'dayjs'
import 'dayjs/locale/ru'
import 'dayjs/locale/vi'
import 'dayjs/locale/zh-cn'
import 'antd/dist/antd.css'
import 'nprogress/nprogress.css'
import { useEffect, useMemo, useRef, useSyncExternalStore, type CSSProperties } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { useConfig } from '../../lib/queries/config'
import type { Me } from '../../lib/auth/me'
import { currentLanguage, type Language } from '../../lib/i18n'
import type { Size } from '../../lib/settings'
import { LINK_CONTRAST, LINK_HOVER_CONTRAST, readableShade, themeFor } from '../../lib/theme'
import { filterRoutes } from '../routing/filter'
import { resolveRoutes, toRouteObjects } from '../routing/resolve'
import { asyncRoutes, constantRoutes, notFoundRoute } from '../routing/table'
import type { AppRoute } from '../routing/types'
import { effectiveAccess, usePreview } from '../../lib/auth/preview'
import { connectPush } from '../push'
import { AppMain } from './AppMain'
import { Banners } from './Banners'
import { Navbar } from './Navbar'
import { SettingsPanel } from './SettingsPanel'
import { Sidebar } from './Sidebar'
import { ShellStateProvider, useShell } from './state'
import { TagsView } from './TagsView'
import styles from './shell.module.css'
import { buttonConfig } from './antdConfig'
import { SlotProvider } from '../../lib/slots'
import { ToastProvider } from '../../light/Toast'
import { slots } from '../slots'

const antdLocales: Record<Language, Locale> = { en: enUS, ru: ruRU, zh: zhCN, vi: viVN }
const dayjsLocales: Record<Language, string> = { en: 'en', ru: 'ru', zh: 'zh-cn', vi: 'vi' }
/** The size selector's four sizes on Ant Design's three, with the compact algorithm for Mini. */
const componentSizes: Record<Size, 'large' | 'middle' | 'small'> = { default: 'large', medium: 'middle', small: 'small', mini: 'small' }

function Layout({ me, userRoutes }: { me: Me; userRoutes: AppRoute[] }) {
  const { sidebarOpened, mobile, closeSidebar, settings, size } = useShell()
  const { i18n } = useTranslation()
  const lang = currentLanguage()
  const config = useConfig()

  const resolved = useMemo(() => resolveRoutes(userRoutes), [userRoutes])
  const location = useLocation()
  const navigate = useNavigate()
  useEffect(() => {
    if ((me.must_change_password || me.must_enrol_two_factor) && location.pathname !== '/profile/edit') navigate('/profile/edit', { replace: true })
  }, [me.must_change_password, me.must_enrol_two_factor, location.pathname, navigate])
  const routeObjects = useMemo(() => toRouteObjects([...userRoutes, notFoundRoute]), [userRoutes])

  dayjs.locale(dayjsLocales[lang])
  const theme = themeFor(settings.theme)
  const reducedMotion = useReducedMotion()
  const primary = readableShade(settings.theme)
  const link = readableShade(settings.theme, LINK_CONTRAST)
  const linkHover = readableShade(settings.theme, LINK_HOVER_CONTRAST)
  useEffect(() => {
    // On the root, so the progress bar (appended to <body>) takes the colour too; the light
    // components (src/light) take the links' shades as Ant Design's theme does.
    const root = document.documentElement.style
    root.setProperty('--emr-primary', primary)
    root.setProperty('--emr-link', link)
    root.setProperty('--emr-link-hover', linkHover)
  }, [primary, link, linkHover])
  // Escape closes the phone's sidebar, as a click on the backdrop does.
  useEffect(() => {
    if (!mobile || !sidebarOpened) return
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && closeSidebar()
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [mobile, sidebarOpened, closeSidebar])
  const classes = [styles.app, mobile ? styles.mobile : '', sidebarOpened ? styles.opened : styles.collapsed].join(' ')

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
      <AntApp>
        <ToastProvider>
        {/* data-emr-size: the light components (src/light) take the size setting from it. */}
        <div className={classes} data-emr-size={size}>
          <a href="#main" className={styles.skipLink}>
            {i18n.t('navbar.skipToContent')}
          </a>
          {mobile && sidebarOpened && <div className={styles.backdrop} onClick={closeSidebar} aria-hidden />}
          <Sidebar routes={userRoutes} />
          <div
            className={styles.mainContainer}
            // How far down a sticky part of a page (the patient banner) stays: under the fixed header.
            style={{ '--emr-header-height': settings.fixedHeader ? (settings.tagsView ? 'calc(var(--navbar-height) + var(--tags-height))' : 'var(--navbar-height)') : '0px' } as CSSProperties}
          >
            <div className={settings.fixedHeader ? styles.fixedHeader : undefined}>
              <Navbar me={me} routes={resolved} routeObjects={routeObjects} />
              {settings.tagsView && <TagsView />}
            </div>
            <Banners me={me} />
            <AppMain routeObjects={routeObjects} />
          </div>
          {config.data?.show_settings && <SettingsPanel />}
        </div>
        </ToastProvider>
      </AntApp>
    </ConfigProvider>
  )
}

export default function Shell({ me }: { me: Me }) {
  const queryClient = useQueryClient()
  // One push connection per logged-in user; its channels follow their permissions.
  const push = useRef<ReturnType<typeof connectPush>>(undefined)
  useEffect(() => {
    const p = connectPush(me.id, queryClient)
    push.current = p
    return p.stop
  }, [me.id, queryClient])
  useEffect(() => push.current?.follow(me), [me])
  // The routes this user may see (spec §6), or the previewed role would, computed once for the
  // layout and the pinned tabs. After an administrator's password reset, only the own
  // profile, where it is changed.
  const mustChange = Boolean(me.must_change_password || me.must_enrol_two_factor)
  const preview = usePreview()
  const { roles, permissions } = useMemo(() => effectiveAccess(me, preview), [me, preview])
  const userRoutes = useMemo(
    () => (mustChange ? constantRoutes.filter((r) => r.path === '/profile') : filterRoutes([...constantRoutes, ...asyncRoutes], roles, permissions)),
    [roles, permissions, mustChange],
  )
  const affixViews = useMemo(
    () =>
      resolveRoutes(userRoutes)
        .filter((r) => r.meta?.affix && r.meta.title)
        .map((r) => ({ path: r.fullPath, search: '', title: r.meta!.title!, affix: true, noCache: r.meta?.noCache })),
    [userRoutes],
  )
  return (
    <SlotProvider value={slots}>
      <ShellStateProvider key={`${roles.join()}|${permissions.join()}|${mustChange}`} affixViews={affixViews}>
        <Layout me={me} userRoutes={userRoutes} />
      </ShellStateProvider>
    </SlotProvider>
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
