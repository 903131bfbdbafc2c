import { useTranslation } from 'react-i18next'
import { fullName } from '../lib/patient'
import styles from './PatientBanner.module.css'
import { formatDay } from '../lib/time'
import { formatAge } from '../lib/age'
import { labelOf, severityLabel, sexLabel } from '../lib/labels'
import { WarningIcon } from './icons'

export interface Allergy {
  substance: string
  reaction: string
  severity: string
}

export interface BannerPatient {
  mrn: string
  first_name: string
  middle_name: string
  last_name: string
  sex: keyof typeof sexLabel
  birth_date: string
  allergies: Allergy[]
  allergy_status?: string
  allergy_recorded_by?: string
  allergy_recorded_at?: string
}

/** What is known of a patient's allergies: the list, and whether anyone has asked. */
export type AllergyFacts = Pick<BannerPatient, 'allergies' | 'allergy_status' | 'allergy_recorded_by' | 'allergy_recorded_at'>

/** One allergy as the banner, the editor and the print write it: "Penicillin — Severe — rash". */
export function useAllergyText() {
  const { t } = useTranslation()
  return (a: Allergy) => [a.substance, a.severity && t(labelOf(severityLabel, a.severity) ?? a.severity), a.reaction].filter(Boolean).join(' — ')
}

/**
 * The allergies line: red with each allergy when there are any; "No known allergies" only
 * when someone recorded it (with who and when); else amber "Allergies not recorded", since an
 * empty list may only mean that nobody asked.
 */
export function AllergyLine({ facts }: { facts: AllergyFacts }) {
  const { t } = useTranslation()
  const text = useAllergyText()
  const { allergies } = facts
  if (allergies.length === 0 && facts.allergy_status === 'none')
    return (
      <span className={styles.noAllergies} data-testid="allergies">
        {t('patients.noAllergies')}
        {facts.allergy_recorded_by && facts.allergy_recorded_at && (
          <span className={styles.recorded}> · {t('patients.allergyRecorded', { by: facts.allergy_recorded_by, date: formatDay(facts.allergy_recorded_at) })}</span>
        )}
      </span>
    )
  if (allergies.length === 0)
    return (
      <span className={styles.unrecorded} data-testid="allergies">
        <WarningIcon /> {t('patients.allergiesNotRecorded')}
      </span>
    )
  return (
    <span className={styles.allergies} data-testid="allergies">
      <WarningIcon /> <strong>{t('patients.allergyBanner')}</strong> {allergies.map(text).join('; ')}
    </span>
  )
}

/**
 * Who this screen is about, always in view while the page scrolls: the name in the user's
 * language's order, sex, age, birth date, patient number and allergies.
 */
export function PatientBanner({ patient }: { patient: BannerPatient }) {
  const { t } = useTranslation()
  return (
    <section className={styles.banner} aria-label={t('banner.label')} data-testid="patient-banner">
      <div className={styles.identity}>
        <strong className={styles.name}>{fullName(patient)}</strong>
        <span>{t(sexLabel[patient.sex])}</span>
        <span>{formatAge(patient.birth_date)}</span>
        <span>{formatDay(patient.birth_date)}</span>
        <span>
          {t('patients.mrn')} {patient.mrn}
        </span>
      </div>
      <AllergyLine facts={patient} />
    </section>
  )
}
