import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation } from 'react-router'
import { useClinic } from '../../lib/clinic'
import { CrossIcon } from '../../light/icons'
import type { AppRoute } from '../routing/types'
import { menuItems, openKeysFor } from './menu'
import { SideMenu } from './SideMenu'
import { useShell } from './state'
import styles from './shell.module.css'
import { cycleTab } from '../../light/focus'

/** What can take focus in the sidebar now: not inside a closed group, not a roving item's -1. */
const tabbable = (root: HTMLElement) =>
  [...root.querySelectorAll<HTMLElement>('a[href], button')].filter((el) => el.tabIndex >= 0 && !el.closest('[hidden]'))

export interface SidebarProps {
  routes: AppRoute[]
  /**
   * The phone's sidebar asks to close: dismissed (its close button), or a page was chosen. The
   * layout closes it and puts focus where it belongs (the toggle, or the page).
   */
  onMobileClose: (reason: 'dismiss' | 'page') => void
}

export function Sidebar({ routes, onMobileClose }: SidebarProps) {
  const { t } = useTranslation()
  const { sidebarOpened, mobile, settings } = useShell()
  const location = useLocation()
  const items = useMemo(() => menuItems(routes, t), [routes, t])
  const collapsed = !mobile && !sidebarOpened
  // On a phone the open sidebar is a modal dialog over the page (the APG's dialog pattern).
  const modal = mobile && sidebarOpened
  const aside = useRef<HTMLElement>(null)
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

  // Opened on a phone, focus goes into it: on the current page's item, else the menu's tab stop.
  useEffect(() => {
    const root = aside.current
    if (!modal || !root) return
    const current = [...root.querySelectorAll<HTMLElement>('[role="menuitem"][aria-current="page"]')].find((el) => !el.closest('[hidden]'))
    ;(current ?? root.querySelector<HTMLElement>('[role="menuitem"][tabindex="0"]'))?.focus()
  }, [modal])

  // While it is a modal, Tab and Shift+Tab go round inside it (the rest of the layout is inert).
  const onKeyDown = (e: KeyboardEvent) => {
    if (modal && aside.current) cycleTab(e, tabbable(aside.current))
  }

  return (
    <aside
      ref={aside}
      id="emr-sidebar"
      className={[styles.sidebar, collapsed ? styles.sidebarCollapsed : '', mobile ? styles.sidebarMobile : '', mobile && !sidebarOpened ? styles.sidebarHidden : ''].join(' ')}
      aria-label={t('navbar.menu')}
      // Closed on a phone it is off screen: out of the tab order and the accessibility tree too.
      inert={mobile && !sidebarOpened}
      onKeyDown={onKeyDown}
    >
      {(settings.sidebarLogo || modal) && (
        <div className={styles.sidebarHead}>
          {settings.sidebarLogo && (
            // Named by its visible title; collapsed to the icon, by the same words.
            <Link to="/" className={styles.logo} aria-label={collapsed ? title : undefined} onClick={() => modal && onMobileClose('page')}>
              <img src="/favicon.svg" alt="" width={28} height={28} />
              {!collapsed && (
                <span className={[styles.logoTitle, title.length > 12 ? styles.logoTitleLong : ''].join(' ')} title={title}>
                  {title}
                </span>
              )}
            </Link>
          )}
          {modal && (
            <button type="button" className={styles.sidebarClose} aria-label={t('navbar.closeMenu')} onClick={() => onMobileClose('dismiss')}>
              <CrossIcon />
            </button>
          )}
        </div>
      )}
      <SideMenu
        items={items}
        selected={location.pathname}
        collapsed={collapsed}
        openKeys={openKeys}
        onOpenChange={setOpenKeys}
        onNavigate={() => mobile && onMobileClose('page')}
        label={t('navbar.menu')}
      />
    </aside>
  )
}
