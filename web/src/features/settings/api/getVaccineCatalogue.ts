// What the immunisation settings choose from: the shipped schedules and the vaccines of the
// catalogue (GET /api/immunisation/catalogue), named in the user's language.
import { queryOptions, useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { get } from '../../../lib/api'
import { immunisationCatalogueKey } from '../../../lib/queryKeys'

export interface CatalogueVaccine {
  key: string
  cvx: string
  name: string
  /** The product's names on the market, by country. */
  brands?: Record<string, string[]>
}

export interface CatalogueSchedule {
  key: string
  name: string
  /** ISO 3166 code ('' for WHO's). */
  country: string
  source: string
}

export interface VaccineCatalogue {
  vaccines: CatalogueVaccine[]
  schedules: CatalogueSchedule[]
}

/** Under the language: its names are in the language the server answered in. */
export const vaccineCatalogueQuery = (language: string) =>
  queryOptions({
    queryKey: [...immunisationCatalogueKey, 'settings', language],
    queryFn: () => get<VaccineCatalogue>('/immunisation/catalogue').then((c) => ({ vaccines: c.vaccines ?? [], schedules: c.schedules ?? [] })),
  })

export const useVaccineCatalogue = () => {
  const { i18n } = useTranslation()
  return useQuery(vaccineCatalogueQuery(i18n.language))
}
