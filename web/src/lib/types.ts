// API types that several features read: a prescriber's licences (profile, prescriptions), a
// catalogue medicine (catalogue administration, prescriptions), a catalogue import's report.
import type { Schema } from './schema'

export type Licence = Schema<'Licence'>
export type Medicine = Schema<'Medicine'>
/** What an import of a catalogue file did, row by row. */
export type ImportReport = Schema<'ImportReport'>
