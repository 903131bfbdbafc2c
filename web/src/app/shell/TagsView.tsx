import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { ContextMenu, contextMenuAt, isContextMenuKey, type ContextMenuAt } from '../../light/ContextMenu'
import { CrossIcon } from '../../light/icons'
import { afterClose, tagsReducer, viewLabel, type TagsAction, type View } from './tags'
import { useShell } from './state'
import styles from './shell.module.css'

export function TagsView() {
  const { t } = useTranslation()
  const { tags, dispatchTags } = useShell()
  const location = useLocation()
  const navigate = useNavigate()
  // The tab whose context menu is open, and where.
  const [menu, setMenu] = useState<{ view: View; at: ContextMenuAt }>()
  const nav = useRef<HTMLElement>(null)
  // The tab whose link takes focus once a closed tab has gone: its path, or 'active' for the
  // tab of the page opened after the active one was closed (it may come only after a redirect).
  const focusTo = useRef<string>(undefined)
  useEffect(() => {
    const to = focusTo.current
    if (!to) return
    // Only while focus is lost with the closed tab (or still among the tabs): a user who has
    // moved on elsewhere keeps their focus.
    const at = document.activeElement
    if (at && at !== document.body && !nav.current?.contains(at)) {
      focusTo.current = undefined
      return
    }
    const links = [...(nav.current?.querySelectorAll<HTMLElement>('[data-path] > a') ?? [])]
    const link = to === 'active' ? links.find((a) => a.getAttribute('aria-current') === 'page') : links.find((a) => a.parentElement?.dataset.path === to)
    if (!link) return
    focusTo.current = undefined
    link.focus()
  })

  // Applies an action, and leaves the page when the active tab was closed. Focus goes to the
  // tab after the one closed, else the one before, else the tab of the page opened: never
  // lost to the page's start with the button or the link that had it.
  const act = (action: TagsAction) => {
    const next = tagsReducer(tags, action)
    dispatchTags(action)
    const leaving = !next.views.some((v) => v.path === location.pathname) && tags.views.some((v) => v.path === location.pathname)
    if (action.type === 'close') {
      const at = tags.views.findIndex((v) => v.path === action.path)
      const kept = (v: View) => next.views.some((n) => n.path === v.path)
      const after = tags.views.slice(at + 1).find(kept) ?? tags.views.slice(0, Math.max(at, 0)).findLast(kept)
      focusTo.current = after?.path ?? 'active'
    } else if (action.type === 'closeAll') focusTo.current = 'active'
    if (leaving) navigate(afterClose(next.views))
  }

  const choose = (view: View, key: string) => {
    if (key === 'refresh') {
      dispatchTags({ type: 'refresh', path: view.path })
      if (view.path !== location.pathname) navigate(view.path + view.search)
    } else if (key === 'close') act({ type: 'close', path: view.path })
    else if (key === 'closeOthers') {
      act({ type: 'closeOthers', path: view.path })
      if (view.path !== location.pathname) navigate(view.path + view.search)
    } else act({ type: 'closeAll' })
  }

  const label = (view: View) => viewLabel(tags.subjects?.[view.path], t(`route.${view.title}`))

  return (
    <nav ref={nav} className={styles.tags} aria-label={t('tags.label')}>
      {tags.views.map((view) => {
        const active = view.path === location.pathname
        return (
          <span key={view.path} className={active ? `${styles.tag} ${styles.tagActive}` : styles.tag} data-path={view.path}>
            <Link
              to={view.path + view.search}
              aria-current={active ? 'page' : undefined}
              className={styles.tagLink}
              // The context menu opens on a right-click and from the keyboard (Shift+F10, the ContextMenu key).
              onContextMenu={(e) => {
                e.preventDefault()
                setMenu({ view, at: contextMenuAt(e) })
              }}
              onKeyDown={(e) => {
                if (isContextMenuKey(e)) {
                  e.preventDefault()
                  setMenu({ view, at: contextMenuAt(e) })
                }
              }}
            >
              {label(view)}
            </Link>
            {!view.affix && (
              <button type="button" className={styles.tagClose} aria-label={t('tags.closeNamed', { name: label(view) })} onClick={() => act({ type: 'close', path: view.path })}>
                <CrossIcon />
              </button>
            )}
          </span>
        )
      })}
      {menu && (
        <ContextMenu
          key={menu.view.path}
          at={menu.at}
          label={label(menu.view)}
          items={[
            { key: 'refresh', label: t('tags.refresh') },
            { key: 'close', label: t('tags.close'), disabled: menu.view.affix },
            { key: 'closeOthers', label: t('tags.closeOthers') },
            { key: 'closeAll', label: t('tags.closeAll') },
          ]}
          onSelect={(key) => choose(menu.view, key)}
          onClose={() => setMenu(undefined)}
        />
      )}
    </nav>
  )
}
