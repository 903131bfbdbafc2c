import { Suspense, useCallback, useEffect, useLayoutEffect, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { matchRoutes, useLocation, useRoutes, type RouteObject } from 'react-router'
import { LoadBoundary } from '../../components/LoadBoundary'
import { usePageTitle } from '../../components/usePageTitle'
import { WithAntd } from '../../lib/withAntd'
import { doneProgress, startProgress } from '../../lib/progress'
import { ViewActiveContext, ViewSubjectContext } from '../../lib/viewSubject'
import type { RouteHandle } from '../routing/resolve'
import { useShell } from './state'
import { viewLabel } from './tags'
import { ViewFailed } from './ViewFailed'
import styles from './shell.module.css'

function ProgressDone({ active }: { active: boolean }) {
  useEffect(() => {
    if (active) doneProgress()
  }, [active])
  return null
}

/** One view, rendered for its own location; hidden (kept alive) while another tab is active. */
function KeptView({ routes, pathname, search, active }: { routes: RouteObject[]; pathname: string; search: string; active: boolean }) {
  const { t } = useTranslation()
  const element = useRoutes(routes, { pathname, search })
  const { tags, dispatchTags } = useShell()
  const setSubject = useCallback((subject: string | undefined) => dispatchTags({ type: 'subject', path: pathname, subject }), [dispatchTags, pathname])
  const meta = (matchRoutes(routes, pathname)?.at(-1)?.route.handle as RouteHandle | undefined)?.meta
  const title = meta?.title
  return (
    <div hidden={!active} className={styles.view} data-path={pathname}>
      {/* Each screen's one h1 is its title, for screen readers (the tab and breadcrumb show it to the eye). */}
      {title && <h1 className="visually-hidden">{viewLabel(tags.subjects?.[pathname], t(`route.${title}`))}</h1>}
      <ViewSubjectContext.Provider value={setSubject}>
        <ViewActiveContext.Provider value={active}>
          <LoadBoundary
            fallback={
              <>
                <ProgressDone active={active} />
                <ViewFailed />
              </>
            }
          >
            <Suspense fallback={null}>
              <ProgressDone active={active} />
              {/* A screen still built on the library gets its provider (and loads it); a light one neither. */}
              {meta?.light ? element : <WithAntd>{element}</WithAntd>}
            </Suspense>
          </LoadBoundary>
        </ViewActiveContext.Provider>
      </ViewSubjectContext.Provider>
    </div>
  )
}

/**
 * The page area. Visited views stay mounted (state survives switching tabs) unless their
 * route is noCache; Refresh remounts one view; a pinned tab's view mounts when first opened.
 */
export function AppMain({ routeObjects }: { routeObjects: RouteObject[] }) {
  const { t } = useTranslation()
  const location = useLocation()
  const { tags, dispatchTags } = useShell()
  const leaf = matchRoutes(routeObjects, location)?.at(-1)
  const meta = (leaf?.route.handle as RouteHandle | undefined)?.meta
  const isPage = Boolean(leaf?.route.element && meta?.title && leaf.route.path !== '*')

  usePageTitle(meta?.title ? viewLabel(tags.subjects?.[location.pathname], t(`route.${meta.title}`)) : undefined)

  // Layout effects run before the views' effects, so the bar starts before a view ends it.
  useLayoutEffect(() => {
    startProgress()
  }, [location.pathname])

  useEffect(() => {
    if (isPage && meta?.title) {
      dispatchTags({ type: 'visit', view: { path: location.pathname, search: location.search, title: meta.title, affix: meta.affix, noCache: meta.noCache } })
    }
  }, [dispatchTags, isPage, location.pathname, location.search, meta?.title, meta?.affix, meta?.noCache])

  // A view is mounted from its first visit on: a pinned tab not yet opened (My profile) costs the
  // screen being opened neither its code nor its requests.
  const [visited, setVisited] = useState<ReadonlySet<string>>(() => new Set([location.pathname]))
  if (!visited.has(location.pathname)) setVisited(new Set(visited).add(location.pathname))

  // One keyed list in tab order, so that switching tabs never remounts a view.
  const views = tags.views.filter((v) => !v.noCache && visited.has(v.path)).map((v) => ({ path: v.path, search: v.search }))
  if (!views.some((v) => v.path === location.pathname)) views.push({ path: location.pathname, search: location.search })
  return (
    // Focusable from script (not by Tab): the skip link's target, and where focus goes after a
    // page is chosen in the phone's sidebar, which then hides.
    <main className={styles.appMain} id="main" tabIndex={-1}>
      {views.map((v) => {
        const active = v.path === location.pathname
        return (
          <KeptView
            key={`${v.path}#${tags.refresh[v.path] ?? 0}`}
            routes={routeObjects}
            pathname={v.path}
            search={active ? location.search : v.search}
            active={active}
          />
        )
      })}
    </main>
  )
}
