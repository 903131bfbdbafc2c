import type { MenuProps } from 'antd'
import type { TFunction } from 'i18next'
import { joinPath } from '../routing/filter'
import type { AppRoute } from '../routing/types'

type Item = Required<MenuProps>['items'][number]

/**
 * Sidebar items from the user's routes: hidden routes are left out; a parent with a single
 * visible child shows that child in its place unless it is marked alwaysShow.
 */
export function menuItems(routes: readonly AppRoute[], t: TFunction, parent = '/'): Item[] {
  return routes.flatMap((r): Item[] => {
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

const hasKey = (items: Item[], key: string): boolean =>
  items.some((i) => !!i && 'key' in i && (i.key === key || ('children' in i && !!i.children && hasKey(i.children as Item[], key))))

/** The keys of the submenus that hold `path`, outermost first, for opening them. */
export function openKeysFor(items: Item[], path: string): string[] {
  for (const item of items) {
    if (item && 'children' in item && item.children && hasKey(item.children as Item[], path)) {
      return [String(item.key), ...openKeysFor(item.children as Item[], path)]
    }
  }
  return []
}
