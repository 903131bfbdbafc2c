import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons'
import { Breadcrumb, Button } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link, matchRoutes, useLocation, type RouteObject } from 'react-router'
import type { Me } from '../../lib/auth/me'
import type { RouteHandle } from '../routing/resolve'
import type { ResolvedRoute } from '../routing/types'
import { HeaderSearch } from './HeaderSearch'
import { AvatarMenu, FullscreenToggle, LanguageMenu, LiveIndicator, SizeSelect } from './NavbarControls'
import { useShell } from './state'
import styles from './shell.module.css'

function Crumbs({ routeObjects }: { routeObjects: RouteObject[] }) {
  const { t } = useTranslation()
  const location = useLocation()
  const leaf = matchRoutes(routeObjects, location)?.at(-1)
  const handle = leaf?.route.handle as RouteHandle | undefined
  if (!handle?.meta?.title) return null
  const chain = [...handle.parents, { meta: handle.meta, fullPath: handle.fullPath, redirect: undefined }].filter((r) => r.meta?.title && r.meta.breadcrumb !== false)
  const items = chain.map((r, i) => ({
    key: r.fullPath,
    title: i < chain.length - 1 && r.redirect ? <Link to={r.redirect}>{t(`route.${r.meta?.title}`)}</Link> : t(`route.${r.meta?.title}`),
  }))
  if (handle.fullPath !== '/dashboard') items.unshift({ key: '/dashboard', title: <Link to="/dashboard">{t('route.dashboard')}</Link> })
  return <Breadcrumb items={items} className={styles.breadcrumb} />
}

export function Navbar({ me, routes, routeObjects }: { me: Me; routes: ResolvedRoute[]; routeObjects: RouteObject[] }) {
  const { t } = useTranslation()
  const { sidebarOpened, toggleSidebar, mobile } = useShell()
  return (
    <header className={styles.navbar}>
      <Button
        type="text"
        icon={sidebarOpened ? <MenuFoldOutlined aria-hidden /> : <MenuUnfoldOutlined aria-hidden />}
        onClick={toggleSidebar}
        aria-label={t('navbar.toggleSidebar')}
        aria-expanded={sidebarOpened}
      />
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
