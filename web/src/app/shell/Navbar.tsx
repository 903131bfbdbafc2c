import { useTranslation } from 'react-i18next'
import { Link, matchRoutes, useLocation, type RouteObject } from 'react-router'
import type { Me } from '../../lib/auth/me'
import { IconButton } from '../../light/IconButton'
import { MenuFoldIcon, MenuUnfoldIcon } from '../../light/icons'
import type { RouteHandle } from '../routing/resolve'
import type { ResolvedRoute } from '../routing/types'
import { HeaderSearch } from './HeaderSearch'
import { AvatarMenu, FullscreenToggle, LanguageMenu, LiveIndicator, SizeSelect } from './NavbarControls'
import { SIDEBAR_TOGGLE_ID, useShell } from './state'
import styles from './shell.module.css'

/** Where the page sits: the dashboard, then the page's parents, then the page (aria-current). */
function Crumbs({ routeObjects }: { routeObjects: RouteObject[] }) {
  const { t } = useTranslation()
  const location = useLocation()
  const leaf = matchRoutes(routeObjects, location)?.at(-1)
  const handle = leaf?.route.handle as RouteHandle | undefined
  if (!handle?.meta?.title) return null
  const chain = [...handle.parents, { meta: handle.meta, fullPath: handle.fullPath, redirect: undefined }].filter((r) => r.meta?.title && r.meta.breadcrumb !== false)
  const items = chain.map((r, i) => ({ key: r.fullPath, title: t(`route.${r.meta?.title}`), to: i < chain.length - 1 ? r.redirect : undefined }))
  if (handle.fullPath !== '/dashboard') items.unshift({ key: '/dashboard', title: t('route.dashboard'), to: '/dashboard' })
  return (
    <nav aria-label={t('navbar.breadcrumb')} className={styles.breadcrumb}>
      <ol>
        {items.map((item, i) => (
          <li key={item.key}>
            {i === items.length - 1 ? <span aria-current="page">{item.title}</span> : item.to ? <Link to={item.to}>{item.title}</Link> : <span>{item.title}</span>}
          </li>
        ))}
      </ol>
    </nav>
  )
}

export function Navbar({ me, routes, routeObjects }: { me: Me; routes: ResolvedRoute[]; routeObjects: RouteObject[] }) {
  const { t } = useTranslation()
  const { sidebarOpened, toggleSidebar, mobile } = useShell()
  return (
    <header className={styles.navbar}>
      <IconButton id={SIDEBAR_TOGGLE_ID} label={t('navbar.toggleSidebar')} tooltipAlign="start" onClick={toggleSidebar} aria-expanded={sidebarOpened} aria-controls="emr-sidebar">
        {sidebarOpened ? <MenuFoldIcon /> : <MenuUnfoldIcon />}
      </IconButton>
      {!mobile && <Crumbs routeObjects={routeObjects} />}
      <div className={styles.navRight}>
        <LiveIndicator />
        {!mobile && <HeaderSearch routes={routes} />}
        {!mobile && <FullscreenToggle />}
        <SizeSelect />
        <LanguageMenu />
        <AvatarMenu me={me} />
      </div>
    </header>
  )
}
