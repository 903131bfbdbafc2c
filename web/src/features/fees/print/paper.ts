/** The papers money's prints come on: A5 and A4 sheets, and an 80 mm thermal roll. */
export type Paper = 'A5' | 'A4' | 'roll'

export const PAPERS: Paper[] = ['A5', 'A4', 'roll']

/** The @page size of a paper (a roll's length is what the printer cuts). */
export const pageSize = (p: Paper) => (p === 'roll' ? '80mm 297mm' : p)

/** The paper last chosen for key's prints, kept on this computer. */
export function storedPaper(key: string, fallback: Paper): Paper {
  const p = localStorage.getItem(key) as Paper | null
  return p && PAPERS.includes(p) ? p : fallback
}
