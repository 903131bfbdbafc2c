export const ALLERGY_STATUSES = ['unknown', 'none', 'present'] as const
export type AllergyStatus = (typeof ALLERGY_STATUSES)[number]

export interface Allergy {
  substance: string
  reaction: string
  severity: '' | 'mild' | 'moderate' | 'severe'
}

export interface History {
  allergies: Allergy[]
  /** unknown: nobody has asked yet; none: no known allergies (who recorded it and when, set by the server); present: listed. */
  allergy_status: AllergyStatus
  allergy_recorded_by?: string
  allergy_recorded_at?: string
  past_admissions: string
  past_surgeries: string
  chronic: string[]
  chronic_other: string
  family: string[]
  family_other: string
  smoking: string
  alcohol: string
  social_other: string
  vaccinations: string
}

export interface PatientInput {
  first_name: string
  middle_name: string
  last_name: string
  sex: string
  birth_date: string
  birth_date_estimated: boolean
  civil_status: string
  phone: string
  email: string
  address: string
  occupation: string
  referred_by: string
  blood_type: string
  remarks: string
  history: History
  emergency_contact: { name: string; relation: string; phone: string }
}

export interface Patient extends PatientInput {
  id: number
  mrn: string
  has_photo: boolean
  archived: boolean
  archived_at?: string
  archive_reason?: string
  created_at: string
  updated_at: string
  version: number
}

export interface PatientSummary {
  id: number
  mrn: string
  first_name: string
  middle_name: string
  last_name: string
  sex: string
  birth_date: string
  phone: string
  archived: boolean
  has_photo: boolean
}

export interface PatientFile {
  id: number
  patient_id: number
  kind: 'photo' | 'attachment'
  name: string
  content_type: string
  size: number
  created_at: string
}

export const SEXES = ['male', 'female', 'other', 'unknown']
export const CIVIL_STATUSES = ['single', 'married', 'widowed', 'separated', 'divorced', 'other']
export const BLOOD_TYPES = ['A+', 'A-', 'B+', 'B-', 'AB+', 'AB-', 'O+', 'O-']
export const SEVERITIES = ['mild', 'moderate', 'severe']
export const CHRONIC = ['asthma', 'hypertension', 'diabetes', 'copd', 'tuberculosis', 'seizures']
export const FAMILY = ['hypertension', 'diabetes', 'stroke', 'coronary']
export const SOCIAL = ['never', 'former', 'current']

export const emptyPatient = (): PatientInput => ({
  first_name: '', middle_name: '', last_name: '', sex: '', birth_date: '', birth_date_estimated: false, civil_status: '',
  phone: '', email: '', address: '', occupation: '', referred_by: '', blood_type: '', remarks: '',
  history: { allergies: [], allergy_status: 'unknown', past_admissions: '', past_surgeries: '', chronic: [], chronic_other: '', family: [], family_other: '', smoking: '', alcohol: '', social_other: '', vaccinations: '' },
  emergency_contact: { name: '', relation: '', phone: '' },
})

export { chartPath, fullName } from '../../../lib/patient'
