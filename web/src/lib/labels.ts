// The message keys of the API's enumerations, one typed map each: a value the contract adds
// (api/openapi.yaml → api-schema.d.ts) without a label here fails tsc, and a label key missing
// from a locale fails labels.test.ts. Screens say t(statusLabel[a.status]), never a key built
// from a value at run time.
import type { Schema } from './schema'

type Appointment = Schema<'Appointment'>
type PatientInput = Schema<'PatientInput'>
type History = PatientInput['history']

export const appointmentStatusLabel = {
  booked: 'appointments.status.booked',
  arrived: 'appointments.status.arrived',
  'in-progress': 'appointments.status.in-progress',
  completed: 'appointments.status.completed',
  cancelled: 'appointments.status.cancelled',
  'no-show': 'appointments.status.no-show',
} as const satisfies Record<Appointment['status'], string>

/** An appointment status's tag colour: the library's named colours, whose tags are drawn with text dark enough to read on their tint. */
export const appointmentStatusColor = {
  booked: 'blue',
  arrived: 'gold',
  'in-progress': 'purple',
  completed: 'green',
  cancelled: 'default',
  'no-show': 'red',
} as const satisfies Record<Appointment['status'], string>

/**
 * A bill's state as every screen names it (the desk's bills, the queue's tag, the bill
 * itself): charges open, void, to pay, refunded (all it asked credited back for services
 * not given, nothing kept), or paid. The balance is the server's: total less credited less paid.
 */
export function billState(b: { status: string; balance: number; paid: number; credited: number }) {
  if (b.status === 'draft') return { label: 'bill.status.draft', color: 'blue' } as const
  if (b.status === 'void') return { label: 'bill.status.void', color: 'red' } as const
  if (b.balance > 0) return { label: 'bill.status.toPay', color: 'orange' } as const
  if (b.paid === 0 && b.credited > 0) return { label: 'bill.status.refunded', color: 'default' } as const
  return { label: 'bill.status.paid', color: 'green' } as const
}

export const appointmentTypeLabel = {
  new: 'appointments.types.new',
  'follow-up': 'appointments.types.follow-up',
  'walk-in': 'appointments.types.walk-in',
} as const satisfies Record<Appointment['type'], string>

export const sexLabel = {
  male: 'patients.sex.male',
  female: 'patients.sex.female',
  other: 'patients.sex.other',
  unknown: 'patients.sex.unknown',
} as const satisfies Record<PatientInput['sex'], string>

export const civilStatusLabel = {
  single: 'patients.civil.single',
  married: 'patients.civil.married',
  widowed: 'patients.civil.widowed',
  separated: 'patients.civil.separated',
  divorced: 'patients.civil.divorced',
  other: 'patients.civil.other',
} as const satisfies Record<Exclude<PatientInput['civil_status'], ''>, string>

export const socialLabel = {
  never: 'patients.social.never',
  former: 'patients.social.former',
  current: 'patients.social.current',
} as const satisfies Record<Exclude<History['smoking'], ''>, string>

export const severityLabel = {
  mild: 'patients.severity.mild',
  moderate: 'patients.severity.moderate',
  severe: 'patients.severity.severe',
} as const satisfies Record<Exclude<Schema<'Allergy'>['severity'], ''>, string>

export const allergyStatusLabel = {
  unknown: 'patients.allergyStatus.unknown',
  none: 'patients.allergyStatus.none',
  present: 'patients.allergyStatus.present',
} as const satisfies Record<Exclude<History['allergy_status'], ''>, string>

export const auditOutcomeLabel = {
  success: 'audit.outcomes.success',
  failure: 'audit.outcomes.failure',
  denied: 'audit.outcomes.denied',
} as const satisfies Record<Schema<'AuditEvent'>['outcome'], string>

export const prescriptionStatusLabel = {
  draft: 'rx.status.draft',
  issued: 'rx.status.issued',
  ordered: 'rx.status.ordered',
  dispensed: 'rx.status.dispensed',
  cancelled: 'rx.status.cancelled',
} as const satisfies Record<Schema<'Prescription'>['status'], string>

export const chronicLabel = {
  asthma: 'patients.chronic.asthma',
  hypertension: 'patients.chronic.hypertension',
  diabetes: 'patients.chronic.diabetes',
  copd: 'patients.chronic.copd',
  tuberculosis: 'patients.chronic.tuberculosis',
  seizures: 'patients.chronic.seizures',
} as const satisfies Record<History['chronic'][number], string>

export const familyLabel = {
  hypertension: 'patients.family.hypertension',
  diabetes: 'patients.family.diabetes',
  stroke: 'patients.family.stroke',
  coronary: 'patients.family.coronary',
} as const satisfies Record<History['family'][number], string>

export const testKindLabel = {
  lab: 'visit.testKinds.lab',
  imaging: 'visit.testKinds.imaging',
  functional: 'visit.testKinds.functional',
} as const satisfies Record<'lab' | 'imaging' | 'functional', string>

/** The key of value in a label map; undefined for a value the map does not know (a field the
 * contract types as free text, such as a finding's severity). */
export function labelOf<M extends Record<string, string>>(map: M, value: string | undefined): M[keyof M] | undefined {
  return value !== undefined && Object.hasOwn(map, value) ? map[value as keyof M] : undefined
}

/** Every map, for the test that holds each key to every locale. */
export const labelMaps = {
  appointmentStatusLabel,
  appointmentTypeLabel,
  sexLabel,
  civilStatusLabel,
  socialLabel,
  severityLabel,
  allergyStatusLabel,
  auditOutcomeLabel,
  prescriptionStatusLabel,
  chronicLabel,
  familyLabel,
  testKindLabel,
}
