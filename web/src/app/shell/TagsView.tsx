import { CloseOutlined } from '@ant-design/icons'
import { Dropdown } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link, useLocation, useNavigate } from 'react-router'
import { afterClose, tagsReducer, viewLabel, type TagsAction, type View } from './tags'
import { useShell } from './state'
import styles from './shell.module.css'

export function TagsView() {
  const { t } = useTranslation()
  const { tags, dispatchTags } = useShell()
  const location = useLocation()
  const navigate = useNavigate()

  // Applies an action, and leaves the page when the active tab was closed.
  const act = (action: TagsAction) => {
    const next = tagsReducer(tags, action)
    dispatchTags(action)
    if (!next.views.some((v) => v.path === location.pathname) && tags.views.some((v) => v.path === location.pathname)) {
      navigate(afterClose(next.views))
    }
  }

  const menuFor = (view: View) => ({
    items: [
      { key: 'refresh', label: t('tags.refresh') },
      { key: 'close', label: t('tags.close'), disabled: view.affix },
      { key: 'closeOthers', label: t('tags.closeOthers') },
      { key: 'closeAll', label: t('tags.closeAll') },
    ],
    onClick: ({ key }: { key: string }) => {
      if (key === 'refresh') {
        dispatchTags({ type: 'refresh', path: view.path })
        if (view.path !== location.pathname) navigate(view.path + view.search)
      } else if (key === 'close') act({ type: 'close', path: view.path })
      else if (key === 'closeOthers') {
        act({ type: 'closeOthers', path: view.path })
        if (view.path !== location.pathname) navigate(view.path + view.search)
      } else act({ type: 'closeAll' })
    },
  })

  return (
    <nav className={styles.tags} aria-label={t('tags.label')}>
      {tags.views.map((view) => {
        const active = view.path === location.pathname
        return (
          <Dropdown key={view.path} trigger={['contextMenu']} menu={menuFor(view)}>
            <span className={active ? `${styles.tag} ${styles.tagActive}` : styles.tag} data-path={view.path}>
              <Link to={view.path + view.search} aria-current={active ? 'page' : undefined} className={styles.tagLink}>
                {viewLabel(tags.subjects?.[view.path], t(`route.${view.title}`))}
              </Link>
              {!view.affix && (
                <button type="button" className={styles.tagClose} aria-label={t('tags.closeNamed', { name: viewLabel(tags.subjects?.[view.path], t(`route.${view.title}`)) })} onClick={() => act({ type: 'close', path: view.path })}>
                  <CloseOutlined aria-hidden />
                </button>
              )}
            </span>
          </Dropdown>
        )
      })}
    </nav>
  )
}
