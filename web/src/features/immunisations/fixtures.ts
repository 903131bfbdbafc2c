// The catalogue and a child's record as the server sends them, for the screens' tests.
import type { Catalogue, ImmunisationRecord, PatientImmunisations, Reaction } from './api/types'
import { blankScreening } from './parts'

export const catalogue: Catalogue = {
  vaccines: [
    { key: 'hexa', cvx: '146', atc: 'J07CA09', live: false, antigens: ['diphtheria', 'tetanus', 'pertussis', 'polio', 'hib', 'hepb'], components: [], name: 'Hexaxim (DTaP-IPV-Hib-HepB)', source: 'test', route: 'IM' },
    { key: 'mmr', cvx: '03', atc: 'J07BD52', live: true, antigens: ['measles', 'mumps', 'rubella'], components: ['gelatin', 'neomycin'], name: 'M-M-R II', source: 'test', route: 'SC' },
    { key: 'bcg', cvx: '19', atc: 'J07AN01', live: true, antigens: ['tb'], components: [], name: 'BCG', source: 'test', route: 'ID' },
    { key: 'hepb', cvx: '08', atc: 'J07BC01', live: false, antigens: ['hepb'], components: ['yeast'], name: 'Engerix-B (paediatric)', source: 'test', route: 'IM' },
  ],
  antigens: [
    { key: 'diphtheria', name: 'Diphtheria' },
    { key: 'tetanus', name: 'Tetanus' },
    { key: 'pertussis', name: 'Pertussis' },
    { key: 'polio', name: 'Poliomyelitis' },
    { key: 'hib', name: 'Hib' },
    { key: 'hepb', name: 'Hepatitis B' },
    { key: 'measles', name: 'Measles' },
    { key: 'mumps', name: 'Mumps' },
    { key: 'rubella', name: 'Rubella' },
    { key: 'tb', name: 'Tuberculosis' },
  ],
  schedules: [{ key: 'who', name: 'WHO recommended', country: '', source: 'test' }],
  sites: ['left_thigh', 'right_thigh', 'left_arm', 'right_arm', 'oral', 'intranasal', 'left_buttock', 'right_buttock'],
  routes: ['IM', 'SC', 'ID', 'PO', 'IN'],
  reactions: ['fever', 'local', 'rash', 'persistent_crying', 'seizure', 'hhe', 'anaphylaxis', 'other'],
  clinic: { schedules: ['who'], stocked: ['mmr', 'hepb'] },
}

export const record = (id: number, more: Partial<ImmunisationRecord>): ImmunisationRecord => ({
  id,
  patient_id: 9,
  kind: 'given',
  status: 'completed',
  vaccine: 'hepb',
  vaccine_name: 'Engerix-B (paediatric)',
  antigens: ['hepb'],
  antigen: '',
  antigen_name: '',
  occurred_on: '2026-01-02',
  dose_number: null,
  lot: 'AB123',
  expiry: '2027-06-30',
  site: 'left_thigh',
  route: 'IM',
  given_by: 3,
  given_by_name: 'Nurse Hoa',
  performer: '',
  source: '',
  place: '',
  reason: '',
  until_on: '',
  appointment_id: null,
  override_reason: '',
  overridden: [],
  note: '',
  screening: blankScreening(),
  error_reason: '',
  created_at: '2026-01-02T08:00:00Z',
  created_by_name: 'Nurse Hoa',
  version: 1,
  ...more,
})

export const fever: Reaction = {
  id: 40,
  immunisation_id: 2,
  patient_id: 9,
  onset_on: '2026-03-03',
  reaction: 'fever',
  severity: 'moderate',
  serious: false,
  description: '39.2 °C for a day',
  reported_to: 'District health centre',
  onset_time: '',
  outcome: 'recovered',
  reported_on: '',
  status: 'completed',
  error_reason: '',
  created_at: '2026-03-04T08:00:00Z',
  created_by_name: 'Dr Lan',
  version: 1,
}

/** A child born 2026-01-01: a birth dose, a hexavalent dose given too early, one given elsewhere, one in error, a refusal. */
export const child: PatientImmunisations = {
  records: [
    record(2, { vaccine: 'hexa', vaccine_name: 'Hexaxim (DTaP-IPV-Hib-HepB)', antigens: ['diphtheria', 'tetanus', 'pertussis', 'polio', 'hib', 'hepb'], occurred_on: '2026-02-01' }),
    record(1, { occurred_on: '2026-01-02' }),
    record(3, { kind: 'elsewhere', occurred_on: '2026-01-03', vaccine: 'bcg', vaccine_name: 'BCG', antigens: ['tb'], given_by: null, given_by_name: '', source: 'card', place: 'Tu Du Hospital', lot: '', expiry: '', site: '', route: '' }),
    record(4, { status: 'entered_in_error', occurred_on: '2026-02-01', vaccine: 'mmr', vaccine_name: 'M-M-R II', antigens: ['measles', 'mumps', 'rubella'], error_reason: 'Wrong child' }),
    record(5, { kind: 'refused', vaccine: '', vaccine_name: '', antigens: [], antigen: 'pertussis', antigen_name: 'Pertussis', occurred_on: '2026-04-01', reason: 'Parents decline for now', until_on: '2026-10-01', lot: '', expiry: '', site: '', route: '' }),
  ],
  reactions: [fever],
  forecast: {
    as_of: '2026-11-30',
    evaluations: [
      { record_id: 1, antigen: 'hepb', schedule: 'who', dose_number: 1, valid: true },
      { record_id: 3, antigen: 'tb', schedule: 'who', dose_number: 1, valid: true },
      ...['diphtheria', 'tetanus', 'pertussis', 'polio', 'hib', 'hepb'].map((antigen) => ({ record_id: 2, antigen, schedule: 'who', dose_number: 0, valid: false, reason: 'too_early' })),
    ],
    recommendations: [
      { antigen: 'tb', schedule: 'who', dose_number: 0, doses: 1, status: 'complete', vaccines: ['bcg'], source: 'test', outside_programme: false },
      { antigen: 'measles', schedule: 'who', dose_number: 1, doses: 2, earliest_on: '2026-10-01', due_on: '2026-10-01', overdue_on: '2026-12-01', status: 'due', vaccines: ['mmr'], source: 'test', outside_programme: false },
      { antigen: 'hepb', schedule: 'who', dose_number: 2, doses: 3, earliest_on: '2026-02-12', due_on: '2026-02-12', overdue_on: '2026-03-12', status: 'overdue', vaccines: ['hexa', 'hepb'], source: 'test', outside_programme: false },
      { antigen: 'pertussis', schedule: 'who', dose_number: 1, doses: 3, earliest_on: '2026-02-12', due_on: '2026-02-12', overdue_on: '2026-03-12', status: 'refused', vaccines: ['hexa'], source: 'test', outside_programme: false },
      { antigen: 'rubella', schedule: 'who', dose_number: 1, doses: 1, earliest_on: '2027-01-01', due_on: '2027-01-01', overdue_on: '2027-02-01', status: 'upcoming', vaccines: ['mmr'], source: 'test', outside_programme: false },
    ],
  },
  schedules: ['who'],
  as_of: '2026-11-30',
  birth_date: '2026-01-01',
}
