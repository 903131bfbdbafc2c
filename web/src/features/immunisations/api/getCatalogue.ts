// The vaccine catalogue in the user's language (products, antigens, schedules, the sites, routes
// and reactions a record names, and the clinic's schedules and stocked products). Read once a
// session: it changes with a release or the clinic's settings.
import { queryOptions, useQuery } from '@tanstack/react-query'
import i18n from 'i18next'
import { get } from '../../../lib/api'
import type { Catalogue } from './types'

export const catalogueQuery = () =>
  queryOptions({
    queryKey: ['immunisation-catalogue', i18n.language],
    queryFn: () => get<Catalogue>('/immunisation/catalogue'),
    staleTime: 10 * 60_000,
  })

export const useCatalogue = () => useQuery(catalogueQuery())
