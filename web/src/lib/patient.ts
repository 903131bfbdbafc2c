// How every screen names a patient and links to the chart.
import { currentLanguage, type Language } from './i18n'
import { personName, type Named } from './personName'

/** A person's name in the order the language writes names (personName), in the app's language. */
export function fullName(p: Named, lang: Language = currentLanguage()) {
  return personName(p, lang)
}

/** The chart's address: /masterfile/profile/{id}/{patient number}. */
export const chartPath = (p: { id: number; mrn: string }) => `/masterfile/profile/${p.id}/${p.mrn}`
