// The immunisation record as the server sends it (the contract): the catalogue, a
// patient's doses, refusals and contraindications, reactions after a dose, and the forecast that
// reads them against the clinic's schedules. Names of antigens and vaccines come from the
// catalogue in the user's language; everything else is a key the screens translate.

export type RecordKind = 'given' | 'elsewhere' | 'refused' | 'contraindicated' | 'deferred'

export interface Vaccine {
  key: string
  cvx: string
  atc: string
  live: boolean
  antigens: string[]
  components: string[]
  name: string
  source: string
  /** How the product is given by default (its prescribing information). */
  route: '' | 'IM' | 'SC' | 'ID' | 'PO' | 'IN'
}

export interface Catalogue {
  vaccines: Vaccine[]
  antigens: { key: string; name: string }[]
  /** fever_from: the temperature (°C) from which the programme's screening defers a dose. */
  schedules: { key: string; name: string; country: string; source: string; fever_from?: number }[]
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
  /** What was asked before a dose given here (all null for another record, or one written before it was kept). */
  screening: Screening
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
  /** HH:MM, '' not known. */
  onset_time: string
  outcome: Outcome | ''
  /** The day it was reported to the health authority ('' not yet). */
  reported_on: string
  /** In the answer to its recording only: its vaccine was listed among the allergies. */
  allergy_added?: boolean
  status: 'completed' | 'entered_in_error'
  error_reason: string
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

export type ForecastStatus = 'upcoming' | 'due' | 'overdue' | 'complete' | 'aged_out' | 'refused' | 'contraindicated' | 'deferred'

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
  birth_date: string
}

/** The yes/no questions of the screening before a dose (QĐ 1575/QĐ-BYT 2023; ACIP), by their API names. */
export const SCREENING_QUESTIONS = [
  'pregnant',
  'immunosuppressed',
  'fever',
  'acute_illness',
  'abnormal_heart_lung',
  'abnormal_consciousness',
  'previous_severe_reaction',
  'intussusception',
  'blood_products_recent',
  'immunosuppressant_stopped_recent',
  'weight_under_2000g',
  'tuberculin_negative',
] as const

export type ScreeningQuestion = (typeof SCREENING_QUESTIONS)[number]

/** Each question true, false (answered no) or null (not asked); the temperature in °C, or null. */
export type Screening = Record<ScreeningQuestion, boolean | null> & { temperature_c: number | null }

/** The outcomes of a reaction (the WHO AEFI reporting form's). */
export const OUTCOMES = ['recovered', 'recovering', 'not_recovered', 'recovered_with_sequelae', 'died', 'unknown'] as const
export type Outcome = (typeof OUTCOMES)[number]

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

export type FindingCode =
  | 'live_pregnancy'
  | 'live_immunosuppressed'
  | 'component_allergy'
  | 'expired_lot'
  | 'contraindicated'
  | 'refused'
  | 'deferred'
  | 'too_early'
  | 'too_close'
  | 'too_late'
  | 'duplicate_today'
  | 'product_age'
  | 'wrong_vaccine'
  | 'live_interval'
  | 'screening_fever'
  | 'screening_acute_illness'
  | 'screening_heart_lung'
  | 'screening_consciousness'
  | 'screening_severe_reaction'
  | 'intussusception'
  | 'blood_products'
  | 'immunosuppressant_stopped'
  | 'bcg_low_weight'
  | 'hepb_low_weight'
  | 'bcg_tuberculin'

/** What the safety check says of a dose about to be given, in the user's language. */
export interface Finding {
  code: FindingCode | string
  /** stop: a doctor's to pass, with a reason; warn: passed with a reason; info: a note, no reason needed. */
  severity: 'stop' | 'warn' | 'info'
  message: string
  vaccine: string
  antigen?: string
  substance?: string
  /** A passing reason the dose may be deferred for (the server's list), not a contraindication. */
  deferrable?: boolean
}

export interface ReactionInput {
  onset_on: string
  reaction: string
  severity: 'mild' | 'moderate' | 'severe'
  serious: boolean
  description: string
  reported_to: string
  onset_time: string
  outcome: Outcome | ''
  reported_on: string
  /** An anaphylaxis: list its vaccine among the patient's allergies too. */
  add_allergy: boolean
}

/** The refusal a save of a dose with findings meets: given again with a reason, it is saved. */
export const NEEDS_OVERRIDE = 'immunisation.needs_override'
