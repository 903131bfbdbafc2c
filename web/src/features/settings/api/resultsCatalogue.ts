// The results catalogue's administration: analytes with their ranges, CSV export and import,
// and the critical-result settings.
import { labTestsKey, settingsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type AnalyteEdit = Schema<'AnalyteEdit'>

export type ResultSettings = Schema<'ResultSettings'>

export const analytesKey = [...labTestsKey, 'analytes'] as const

export const EXPORT_HREF = '/api/lab-analytes/export'

export const resultSettingsKey = [...settingsKey, 'results'] as const

export type TestDefinition = Schema<'TestDefinition'>
