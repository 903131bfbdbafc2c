import { get } from '../../../lib/api'
import type { Medicine } from '../../../lib/types'

/** Catalogue medicines matching q (any language's name), for a line's suggestions. */
export const searchMedicines = async (q: string) => (await get<{ data: Medicine[] }>('/medicines', { q, per_page: 20 })).data
