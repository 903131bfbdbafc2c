// The immunisation record as the server sends it (the contract): the catalogue, a
// patient's doses, refusals and contraindications, reactions after a dose, and the forecast that
// reads them against the clinic's schedules. Names of antigens and vaccines come from the
// catalogue in the user's language; everything else is a key the screens translate.

export type RecordKind = 'given' | 'elsewhere' | 'refused' | 'contraindicated'

export interface Vaccine {
  key: string
  cvx: string
  atc: string
  live: boolean
  antigens: string[]
  components: string[]
  name: string
  source: string
}

export interface Catalogue {
  vaccines: Vaccine[]
  antigens: { key: string; name: string }[]
  schedules: { key: string; name: string; country: string; source: string }[]
  sites: string[]
  routes: string[]
  reactions: string[]
  clinic: { schedules: string[]; stocked: string[] }
}

export interface ImmunisationRecord {
  id: number
  patient_id: number
  kind: RecordKind
  status: 'completed' | 'entered_in_error'
  vaccine: string
  vaccine_name: string
  /** The product's antigens: a combination counts for each. */
  antigens: string[]
  /** A refusal's or contraindication's antigen. */
  antigen: string
  antigen_name: string
  occurred_on: string
  dose_number: number | null
  lot: string
  expiry: string
  site: string
  route: string
  given_by: number | null
  given_by_name: string
  performer: string
  source: '' | 'card' | 'registry' | 'parent'
  place: string
  reason: string
  until_on: string
  appointment_id: number | null
  override_reason: string
  overridden: string[]
  note: string
  error_reason: string
  created_at: string
  created_by_name: string
  version: number
}

export interface Reaction {
  id: number
  immunisation_id: number
  patient_id: number
  onset_on: string
  reaction: string
  severity: 'mild' | 'moderate' | 'severe'
  serious: boolean
  description: string
  reported_to: string
  status: string
  created_at: string
  created_by_name: string
  version: number
}

/** Whether a dose counts for an antigen, and as which dose (0: it does not). */
export interface Evaluation {
  record_id: number
  antigen: string
  schedule: string
  dose_number: number
  valid: boolean
  /** too_early, too_close, not_needed, expired. */
  reason?: string
}

export type ForecastStatus = 'upcoming' | 'due' | 'overdue' | 'complete' | 'aged_out' | 'refused' | 'contraindicated'

export interface Recommendation {
  antigen: string
  schedule: string
  dose_number: number
  doses: number
  earliest_on?: string
  due_on?: string
  overdue_on?: string
  latest_on?: string
  status: ForecastStatus
  vaccines: string[]
  source: string
  /** The clinic's first schedule is a national programme and this dose comes from a later one (a service vaccine). */
  outside_programme: boolean
}

export interface Forecast {
  as_of: string
  evaluations: Evaluation[] | null
  recommendations: Recommendation[] | null
}

export interface PatientImmunisations {
  records: ImmunisationRecord[]
  reactions: Reaction[]
  forecast: Forecast
  schedules: string[]
  as_of: string
}

export interface Screening {
  pregnant: boolean | null
  immunosuppressed: boolean | null
}

export interface RecordInput {
  kind: RecordKind
  vaccine: string
  antigen: string
  occurred_on: string
  dose_number?: number | null
  lot: string
  expiry: string
  site: string
  route: string
  performer: string
  source: '' | 'card' | 'registry' | 'parent'
  place: string
  reason: string
  until_on: string
  appointment_id?: number | null
  note: string
  screening: Screening
  override_reason: string
}

export type FindingCode = 'live_pregnancy' | 'live_immunosuppressed' | 'component_allergy' | 'expired_lot' | 'contraindicated' | 'refused' | 'too_early' | 'too_close' | 'too_late' | 'duplicate_today' | 'product_age' | 'wrong_vaccine' | 'live_interval'

/** What the safety check says of a dose about to be given, in the user's language. */
export interface Finding {
  code: FindingCode | string
  severity: 'stop' | 'warn'
  message: string
  vaccine: string
  antigen?: string
  substance?: string
}

export interface ReactionInput {
  onset_on: string
  reaction: string
  severity: 'mild' | 'moderate' | 'severe'
  serious: boolean
  description: string
  reported_to: string
}

/** The refusal a save of a dose with findings meets: given again with a reason, it is saved. */
export const NEEDS_OVERRIDE = 'immunisation.needs_override'
