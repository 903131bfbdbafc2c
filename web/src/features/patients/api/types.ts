import type { Schema } from '../../../lib/schema'


export type Allergy = History['allergies'][number]

export type History = PatientInput['history']

export type PatientInput = Schema<'PatientInput'>

export type Patient = Schema<'Patient'>

export type PatientSummary = Schema<'PatientSummary'>

export type PatientFile = Schema<'File'>

export const BLOOD_TYPES = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-']

/** A new patient's form: nothing chosen yet (the server refuses a patient without sex or birth date). */
export const emptyPatient = (): PatientInput => ({
  first_name: '', middle_name: '', last_name: '', sex: '' as PatientInput['sex'], birth_date: '', birth_date_estimated: false, civil_status: '',
  phone: '', email: '', address: '', occupation: '', referred_by: '', blood_type: '', remarks: '',
  history: { allergies: [], allergy_status: 'unknown', past_admissions: '', past_surgeries: '', chronic: [], chronic_other: '', family: [], family_other: '', smoking: '', alcohol: '', social_other: '', vaccinations: '' },
  emergency_contact: { name: '', relation: '', phone: '' },
  reminders: '', message_language: '', gestation_weeks: null,
})

export { chartPath, fullName } from '../../../lib/patient'

export type PatientImportReport = Schema<'PatientImportReport'>
