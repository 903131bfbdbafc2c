// A person's name in the order a language writes names: pure, with no dependency, so that the
// pages a patient opens (the portal) use the same rule as the staff app without its i18n.

export type Named = { first_name: string; middle_name: string; last_name: string }

const han = /\p{Script=Han}/u

/**
 * A person's name in the order the language writes names, the one rule for every screen and
 * print: English "First Middle Last"; Russian "Last First Middle"; Vietnamese "Last Middle
 * First"; Chinese "Last First" (without spaces when the name is written in characters).
 */
export function personName(p: Named, lang: string) {
  const parts =
    lang === 'en' ? [p.first_name, p.middle_name, p.last_name] : lang === 'vi' ? [p.last_name, p.middle_name, p.first_name] : [p.last_name, p.first_name, p.middle_name]
  const kept = parts.map((s) => s?.trim()).filter(Boolean)
  return lang === 'zh' && kept.every((s) => han.test(s)) ? kept.join('') : kept.join(' ')
}
