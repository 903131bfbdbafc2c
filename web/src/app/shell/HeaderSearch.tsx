import type Fuse from 'fuse.js'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { Combobox } from '../../light/Combobox'
import { SearchIcon } from '../../light/icons'
import type { ResolvedRoute } from '../routing/types'

/** The longest query searched; longer input is cut (fuse.js 7 has no maxPatternLength). */
export const MAX_QUERY = 32

export interface SearchEntry {
  path: string
  title: string
}

/** The pages a user can open by name: routes with a title and no path parameters. */
export function searchEntries(routes: ResolvedRoute[], t: (k: string) => string): SearchEntry[] {
  return routes
    .filter((r) => r.component && r.meta?.title && !r.fullPath.includes(':') && r.path !== '*')
    .map((r) => ({ path: r.fullPath, title: [...r.parents.filter((p) => p.meta?.title && p.alwaysShow), r].map((x) => t(`route.${x.meta?.title}`)).join(' > ') }))
}

/** Fuzzy search over page titles and paths (spec §9: threshold 0.4, title 0.7, path 0.3). */
export function makeSearch(FuseClass: typeof Fuse, entries: SearchEntry[]) {
  const fuse = new FuseClass(entries, {
    threshold: 0.4,
    keys: [
      { name: 'title', weight: 0.7 },
      { name: 'path', weight: 0.3 },
    ],
  })
  return (query: string) => (query.trim() ? fuse.search(query.slice(0, MAX_QUERY)).map((r) => r.item) : [])
}

export function HeaderSearch({ routes }: { routes: ResolvedRoute[] }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const [query, setQuery] = useState('')
  // The fuzzy matcher is fetched when the box is first used, not with every screen.
  const [FuseClass, setFuseClass] = useState<typeof Fuse>()
  const load = () => {
    if (!FuseClass) void import('fuse.js').then((m) => setFuseClass(() => m.default))
  }
  const search = useMemo(() => FuseClass && makeSearch(FuseClass, searchEntries(routes, t)), [FuseClass, routes, t])
  const options = useMemo(() => (search?.(query) ?? []).map((r) => ({ value: r.path, label: r.title })), [search, query])

  return (
    <Combobox
      label={t('navbar.search')}
      placeholder={t('navbar.search')}
      icon={<SearchIcon />}
      query={query}
      onQueryChange={(q) => {
        load()
        setQuery(q)
      }}
      options={options}
      emptyText={search ? t('navbar.searchNothing') : undefined}
      countText={(count) => t('navbar.searchCount', { count })}
      onFocus={load}
      onPointerEnter={load}
      onChoose={(path) => {
        setQuery('')
        navigate(path)
      }}
    />
  )
}
