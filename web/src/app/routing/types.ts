import type { ComponentType, LazyExoticComponent, ReactNode } from 'react'

/** Route meta of spec §3: title (an i18n key under "route."), icon, roles, permissions, affix, noCache, breadcrumb. */
export interface RouteMeta {
  title?: string
  icon?: ReactNode
  roles?: string[]
  permissions?: string[]
  affix?: boolean
  noCache?: boolean
  breadcrumb?: boolean
  /**
   * Open to every logged-in user even under a restricted parent (spec §2: /permission/directive
   * has no restriction while /permission needs 'view menu permission').
   */
  everyone?: boolean
  /**
   * The screen is light (src/light, docs/adr/0046): shown without the component library's
   * provider, so opening it loads neither the library nor its style sheet.
   */
  light?: boolean
  /** Path parameters that must match, e.g. { id: /^\d+$/ }; otherwise the page is a 404. */
  params?: Record<string, RegExp>
}

/** A screen's code, loaded when first shown; preload fetches it ahead of that. */
export type PageComponent = LazyExoticComponent<ComponentType> & { preload?: () => Promise<unknown> }

export interface AppRoute {
  /** Absolute for top-level routes, relative for children. */
  path: string
  name?: string
  redirect?: string
  hidden?: boolean
  /** Show a parent as a submenu even with one visible child. */
  alwaysShow?: boolean
  component?: PageComponent
  /**
   * The screens usually opened next from this one (a chart → its visit): their code is fetched
   * when the browser is idle after this screen shows, so opening them waits for data alone.
   */
  prefetch?: PageComponent[]
  meta?: RouteMeta
  children?: AppRoute[]
}

/** A route with its absolute path, for menus, tags, breadcrumbs and search. */
export interface ResolvedRoute extends AppRoute {
  fullPath: string
  parents: ResolvedRoute[]
}
