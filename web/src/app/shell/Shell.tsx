// The logged-in application: the frame (sidebar, navbar, tabs, settings) and every page. Loaded
// after login, so the login page does not carry it. The frame is light (React, CSS modules,
// native elements); the component library comes only with the screens still built on it, through
// a provider loaded when the first of them opens (AntdProvider.tsx, docs/adr/0046).
import { useQueryClient } from '@tanstack/react-query'
import dayjs from 'dayjs'
import 'dayjs/locale/ru'
import 'dayjs/locale/vi'
import 'dayjs/locale/zh-cn'
import 'nprogress/nprogress.css'
import { lazy, Suspense, useEffect, useMemo, useRef, type CSSProperties, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { useConfig } from '../../lib/queries/config'
import type { Me } from '../../lib/auth/me'
import { currentLanguage, type Language } from '../../lib/i18n'
import { LINK_CONTRAST, LINK_HOVER_CONTRAST, readableShade } from '../../lib/theme'
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
import { useSidebarModal } from './sidebarModal'
import { ShellStateProvider, useShell } from './state'
import { TagsView } from './TagsView'
import styles from './shell.module.css'
import { SlotProvider } from '../../lib/slots'
import { AntdHostContext, useLibraryShown } from '../../lib/withAntd'
import { slots } from '../slots'

// Dates in the user's language for every screen, light or not (the library's date pickers read it too).
const dayjsLocales: Record<Language, string> = { en: 'en', ru: 'ru', zh: 'zh-cn', vi: 'vi' }

const AntdProvider = lazy(() => import('./AntdProvider'))
const ToastHost = lazy(() => import('./AntdProvider').then((m) => ({ default: m.ToastHost })))
/** The library's provider, fetched when a part built on the library first shows (it suspends until then). */
const antdHost = (children: ReactNode, layer?: number) => <AntdProvider layer={layer}>{children}</AntdProvider>

function Layout({ me, userRoutes }: { me: Me; userRoutes: AppRoute[] }) {
  const { sidebarOpened, mobile, settings, size } = useShell()
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
  // The phone's open sidebar is a modal: the rest of the layout is inert behind it.
  const { modal, closeModal } = useSidebarModal()
  const libraryShown = useLibraryShown()
  const classes = [styles.app, mobile ? styles.mobile : '', sidebarOpened ? styles.opened : styles.collapsed].join(' ')

  return (
    <AntdHostContext.Provider value={antdHost}>
      {/* data-emr-size: the light components (src/light) take the size setting from it. */}
      <div className={classes} data-emr-size={size}>
        <a href="#main" className={styles.skipLink} inert={modal}>
          {i18n.t('navbar.skipToContent')}
        </a>
        {modal && <div className={styles.backdrop} onClick={() => closeModal('toggle')} aria-hidden />}
        <Sidebar routes={userRoutes} onMobileClose={(reason) => closeModal(reason === 'page' ? 'main' : 'toggle')} />
        <div
          className={styles.mainContainer}
          inert={modal}
          // How far down a sticky part of a page (the patient banner) stays: under the fixed header.
          style={{ '--emr-header-height': settings.fixedHeader ? (settings.tagsView ? 'calc(var(--navbar-height) + var(--tags-height))' : 'var(--navbar-height)') : '0px' } as CSSProperties}
        >
          <div className={settings.fixedHeader ? styles.fixedHeader : undefined}>
            <Navbar me={me} routes={resolved} routeObjects={routeObjects} />
            {settings.tagsView && <TagsView />}
          </div>
          <Banners me={me} />
          <AppMain routeObjects={routeObjects} />
          {/* The library's toasts, held here once a screen on it has shown, outlive that screen. */}
          {libraryShown && (
            <Suspense fallback={null}>
              <ToastHost />
            </Suspense>
          )}
        </div>
        {config.data?.show_settings && (
          <div inert={modal}>
            <SettingsPanel />
          </div>
        )}
      </div>
    </AntdHostContext.Provider>
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
