import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import { useClinic } from '../../lib/clinic'
import type { AppRoute } from '../routing/types'
import { menuItems, openKeysFor } from './menu'
import { SideMenu } from './SideMenu'
import { useShell } from './state'
import styles from './shell.module.css'

export function Sidebar({ routes }: { routes: AppRoute[] }) {
  const { t } = useTranslation()
  const { sidebarOpened, mobile, closeSidebar, settings } = useShell()
  const location = useLocation()
  const items = useMemo(() => menuItems(routes, t), [routes, t])
  const collapsed = !mobile && !sidebarOpened
  // The sidebar is titled with the clinic's name once an admin has set it (DESIGN §8).
  const { data: clinic } = useClinic()
  const title = clinic?.name || t('app.name')
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(items, location.pathname))
  // When the page changes, the group holding it opens (React's "adjust state on prop change").
  const [shownPath, setShownPath] = useState(location.pathname)
  if (shownPath !== location.pathname) {
    setShownPath(location.pathname)
    setOpenKeys((open) => [...new Set([...open, ...openKeysFor(items, location.pathname)])])
  }

  return (
    <aside
      className={[styles.sidebar, collapsed ? styles.sidebarCollapsed : '', mobile ? styles.sidebarMobile : '', mobile && !sidebarOpened ? styles.sidebarHidden : ''].join(' ')}
      aria-label={t('navbar.menu')}
      // Closed on a phone it is off screen: out of the tab order and the accessibility tree too.
      inert={mobile && !sidebarOpened}
    >
      {settings.sidebarLogo && (
        // Named by its visible title; collapsed to the icon, by the same words.
        <Link to="/" className={styles.logo} aria-label={collapsed ? title : undefined}>
          <img src="/favicon.svg" alt="" width={28} height={28} />
          {!collapsed && (
            <span className={[styles.logoTitle, title.length > 12 ? styles.logoTitleLong : ''].join(' ')} title={title}>
              {title}
            </span>
          )}
        </Link>
      )}
      <SideMenu
        items={items}
        selected={location.pathname}
        collapsed={collapsed}
        openKeys={openKeys}
        onOpenChange={setOpenKeys}
        onNavigate={() => mobile && closeSidebar()}
        label={t('navbar.menu')}
      />
    </aside>
  )
}
