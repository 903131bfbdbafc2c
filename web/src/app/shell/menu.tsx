import type { TFunction } from 'i18next'
import type { ReactNode } from 'react'
import { joinPath } from '../routing/filter'
import type { AppRoute } from '../routing/types'

/** A sidebar item: a page (its key is its path) or a group of pages (its key is the group's path). */
export interface SideItem {
  key: string
  label: string
  icon?: ReactNode
  children?: SideItem[]
}

/**
 * Sidebar items from the user's routes: hidden routes are left out; a parent with a single
 * visible child shows that child in its place unless it is marked alwaysShow.
 */
export function menuItems(routes: readonly AppRoute[], t: TFunction, parent = '/'): SideItem[] {
  return routes.flatMap((r): SideItem[] => {
    if (r.hidden) return []
    const full = joinPath(parent, r.path)
    const visible = (r.children ?? []).filter((c) => !c.hidden)
    if (visible.length === 1 && !r.alwaysShow) {
      const child = visible[0]
      if (child.children?.some((c) => !c.hidden)) return menuItems(visible, t, full)
      return [{ key: joinPath(full, child.path), icon: child.meta?.icon ?? r.meta?.icon, label: t(`route.${child.meta?.title}`) }]
    }
    if (visible.length > 0) {
      return [{ key: full, icon: r.meta?.icon, label: t(`route.${r.meta?.title}`), children: menuItems(visible, t, full) }]
    }
    if (r.component && r.meta?.title) return [{ key: full, icon: r.meta.icon, label: t(`route.${r.meta.title}`) }]
    return []
  })
}

const hasKey = (items: SideItem[], key: string): boolean => items.some((i) => i.key === key || (!!i.children && hasKey(i.children, key)))

/** The keys of the groups that hold `path`, outermost first, for opening them. */
export function openKeysFor(items: SideItem[], path: string): string[] {
  for (const item of items) {
    if (item.children && hasKey(item.children, path)) return [item.key, ...openKeysFor(item.children, path)]
  }
  return []
}
