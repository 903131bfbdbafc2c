// The vaccine catalogue in the user's language (products, antigens, schedules, the sites, routes
// and reactions a record names, and the clinic's schedules and stocked products). Read once a
// session: it changes with a release or the clinic's settings.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { get } from '../../../lib/api'
import { immunisationCatalogueKey } from '../../../lib/queryKeys'
import type { Catalogue } from './types'

/** The catalogue with every list a list (the server may leave an empty one out as null). */
const normalise = (c: Catalogue): Catalogue => ({
  vaccines: (c.vaccines ?? []).map((v) => ({ ...v, antigens: v.antigens ?? [], components: v.components ?? [] })),
  antigens: c.antigens ?? [],
  schedules: c.schedules ?? [],
  sites: c.sites ?? [],
  routes: c.routes ?? [],
  reactions: c.reactions ?? [],
  clinic: { schedules: c.clinic?.schedules ?? [], stocked: c.clinic?.stocked ?? [] },
})

/** Under the language: its names are in the language the server answered in. */
export const catalogueQuery = (language: string) =>
  queryOptions({
    queryKey: [...immunisationCatalogueKey, language],
    queryFn: () => get<Catalogue>('/immunisation/catalogue').then(normalise),
    staleTime: 10 * 60_000,
  })

export const useCatalogue = () => {
  const { i18n } = useTranslation()
  return useQuery(catalogueQuery(i18n.language))
}
