import { get } from '../../../lib/api'
import type { Code } from './types'

/** Diagnosis codes matching q (code or words of a label, in any language). */
export const searchCodes = async (q: string) => (await get<{ data: Code[] }>('/diagnosis-codes', { q })).data
