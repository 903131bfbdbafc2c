// How every screen names a patient and links to the chart.
import { currentLanguage, type Language } from './i18n'

type Named = { first_name: string; middle_name: string; last_name: string }

const han = /\p{Script=Han}/u

/**
 * A person's name in the order the language writes names, the one rule for every screen and
 * print: English "First Middle Last"; Russian "Last First Middle"; Vietnamese "Last Middle
 * First"; Chinese "Last First" (without spaces when the name is written in characters).
 */
export function fullName(p: Named, lang: Language = currentLanguage()) {
  const parts =
    lang === 'en' ? [p.first_name, p.middle_name, p.last_name] : lang === 'vi' ? [p.last_name, p.middle_name, p.first_name] : [p.last_name, p.first_name, p.middle_name]
  const kept = parts.map((s) => s?.trim()).filter(Boolean)
  return lang === 'zh' && kept.every((s) => han.test(s)) ? kept.join('') : kept.join(' ')
}

/** The chart's address: /masterfile/profile/{id}/{patient number}. */
export const chartPath = (p: { id: number; mrn: string }) => `/masterfile/profile/${p.id}/${p.mrn}`
