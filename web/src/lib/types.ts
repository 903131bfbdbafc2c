// API types that several features read: a prescriber's licences (profile, prescriptions), a
// catalogue medicine (catalogue administration, prescriptions), a catalogue import's report.

export interface Licence {
  number: string
  issuer: string
  valid_from: string
  valid_until: string
}

export interface Medicine {
  id: number
  generic_name: string
  brand: string
  strength: string
  form: string
  unit: string
  ingredients: string
  atc: string
  name_ru: string
  name_zh: string
  name_vi: string
  active: boolean
  version: number
  /** The name, strength and form in the user's language, as a line names it. */
  label: string
  /** The unit in the user's language, as a line counts it. */
  unit_label: string
}

/** What an import of a catalogue file did, row by row. */
export interface ImportReport {
  inserted: number
  updated: number
  unchanged: number
  rejected: number
  errors: { line: number; message: string }[]
}
