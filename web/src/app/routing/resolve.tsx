import { lazy, useEffect } from 'react'
import { Navigate, useParams, type RouteObject } from 'react-router'
import { WithAntd } from '../../lib/withAntd'
import { joinPath } from './filter'
import type { AppRoute, PageComponent, ResolvedRoute, RouteMeta } from './types'

// Built on the component library, and rare: fetched (with the library) only when shown.
const NotFoundResult = lazy(() => import('../NotFoundResult').then((m) => ({ default: m.NotFoundResult })))

/** Flattens routes into a list with absolute paths and their parents, depth first. */
export function resolveRoutes(routes: readonly AppRoute[], parent?: ResolvedRoute): ResolvedRoute[] {
  return routes.flatMap((r) => {
    const resolved: ResolvedRoute = { ...r, fullPath: joinPath(parent?.fullPath ?? '/', r.path), parents: parent ? [...parent.parents, parent] : [] }
    return [resolved, ...resolveRoutes(r.children ?? [], resolved)]
  })
}

/** What react-router carries for each route (in `handle`). */
export interface RouteHandle {
  meta?: RouteMeta
  fullPath: string
  parents: ResolvedRoute[]
}

// Safari has no requestIdleCallback: there the next screens are fetched a second after this one.
const whenIdle = (f: () => void) => (window.requestIdleCallback ? window.requestIdleCallback(f, { timeout: 5000 }) : window.setTimeout(f, 1000))
const cancelIdle = (id: number) => (window.cancelIdleCallback ? window.cancelIdleCallback(id) : window.clearTimeout(id))

/**
 * Checks the route's parameter patterns (e.g. numeric ids only), else shows the 404 page; once
 * the browser is idle, fetches the code of the screens usually opened next.
 */
function Page({ component: Component, meta, prefetch }: { component: PageComponent; meta?: RouteMeta; prefetch?: PageComponent[] }) {
  useEffect(() => {
    if (!prefetch?.length) return
    const id = whenIdle(() => prefetch.forEach((p) => void p.preload?.().catch(() => undefined)))
    return () => cancelIdle(id)
  }, [prefetch])
  const params = useParams()
  const ok = Object.entries(meta?.params ?? {}).every(([name, pattern]) => pattern.test(params[name] ?? ''))
  return ok ? (
    <Component />
  ) : (
    <WithAntd>
      <NotFoundResult />
    </WithAntd>
  )
}

/** Converts app routes into react-router route objects, with each route's meta in `handle`. */
export function toRouteObjects(routes: readonly AppRoute[], parent?: ResolvedRoute): RouteObject[] {
  return routes.map((r) => {
    const resolved: ResolvedRoute = { ...r, fullPath: joinPath(parent?.fullPath ?? '/', r.path), parents: parent ? [...parent.parents, parent] : [] }
    const handle: RouteHandle = { meta: r.meta, fullPath: resolved.fullPath, parents: resolved.parents }
    const children = toRouteObjects(r.children ?? [], resolved)
    if (r.redirect) children.unshift({ index: true, element: <Navigate to={r.redirect} replace /> })
    return {
      path: r.path,
      handle,
      element: r.component ? <Page component={r.component} meta={r.meta} prefetch={r.prefetch} /> : undefined,
      children: children.length ? children : undefined,
    }
  })
}
