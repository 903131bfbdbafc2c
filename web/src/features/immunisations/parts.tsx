// What the immunisation card and its dialogs share: the forecast's order and colours, the
// safety check's findings drawn under the field they are about, and the vaccine picker (the
// clinic's stocked products first, then the whole catalogue).
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Alert } from '../../light/Alert'
import { Combobox } from '../../light/Combobox'
import type { ControlProps } from '../../light/Field'
import type { TagColor } from '../../light/Tag'
import { SCREENING_QUESTIONS, type Catalogue, type Finding, type ForecastStatus, type RecordInput, type RecordKind, type Screening, type ScreeningQuestion, type Vaccine } from './api/types'
import styles from './immunisations.module.css'

/** The forecast's statuses in the order a nurse reads them: what is late, then what is due, then the rest. */
export const STATUS_ORDER: ForecastStatus[] = ['overdue', 'due', 'deferred', 'upcoming', 'refused', 'contraindicated', 'complete', 'aged_out']

/** Each status's colour; its text always goes with it. */
export const STATUS_COLOUR: Record<ForecastStatus, TagColor> = {
  overdue: 'red',
  due: 'gold',
  upcoming: 'blue',
  complete: 'green',
  aged_out: 'default',
  refused: 'purple',
  contraindicated: 'magenta',
  deferred: 'orange',
}

/** Today as an ISO date, in the user's time zone. */
export const today = () => {
  const d = new Date()
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`
}

/** A screening with nothing asked. */
export const blankScreening = (): Screening => ({ ...(Object.fromEntries(SCREENING_QUESTIONS.map((q) => [q, null])) as Record<ScreeningQuestion, null>), temperature_c: null })

/** Whole calendar months from birth to day (ISO dates), as the schedules count them. */
export function ageInMonths(birth: string, day: string) {
  const [by, bm, bd] = birth.split('-').map(Number)
  const [y, m, d] = day.split('-').map(Number)
  if (!by || !y) return NaN
  return (y - by) * 12 + (m - bm) - (d < bd ? 1 : 0)
}

/**
 * Where a dose goes by default, for the product's route and the child's age (WHO Immunization in
 * Practice; ACIP General Best Practice Guidelines, Vaccine Administration): an injection into the
 * anterolateral thigh under 12 months, the upper arm (deltoid) from 12 months; BCG (intradermal)
 * into the left upper arm; nothing for an oral or intranasal dose. Always editable.
 */
export function defaultSite(route: string, birth: string | undefined, day: string): string {
  if (route === 'ID') return 'left_arm'
  if (route !== 'IM' && route !== 'SC') return ''
  const months = birth ? ageInMonths(birth, day) : NaN
  // Under the skin from 9 months (measles, MR): the outer upper arm, as Viet Nam's programme gives
  // it (WHO: the thigh or the upper arm); into the muscle under 12 months: the thigh.
  if (route === 'SC') return Number.isFinite(months) && months < 9 ? 'left_thigh' : 'left_arm'
  return Number.isFinite(months) && months < 12 ? 'left_thigh' : 'left_arm'
}

/** The screening questions that concern a product (screening_rules.tsv on the server says which finding each gives). */
export function questionsFor(v: Vaccine | undefined): ScreeningQuestion[] {
  const always: ScreeningQuestion[] = ['fever', 'acute_illness', 'abnormal_heart_lung', 'abnormal_consciousness', 'previous_severe_reaction']
  if (!v) return always
  const has = (...a: string[]) => v.antigens.some((x) => a.includes(x))
  return [
    ...always,
    ...(v.live ? (['pregnant', 'immunosuppressed', 'immunosuppressant_stopped_recent'] as const) : []),
    ...(v.live && v.route !== 'PO' && has('measles', 'mumps', 'rubella', 'varicella') ? (['blood_products_recent'] as const) : []),
    ...(has('rotavirus') ? (['intussusception'] as const) : []),
    ...(has('tb', 'hepb') ? (['weight_under_2000g'] as const) : []),
    ...(has('tb') ? (['tuberculin_negative'] as const) : []),
  ]
}

/** A record of kind with nothing yet filled in. */
export const blankInput = (kind: RecordKind): RecordInput => ({
  kind,
  vaccine: '',
  antigen: '',
  occurred_on: today(),
  dose_number: null,
  lot: '',
  expiry: '',
  site: '',
  route: '',
  performer: '',
  source: '',
  place: '',
  reason: '',
  until_on: '',
  note: '',
  screening: blankScreening(),
  override_reason: '',
})

/** The field of the give dialog a finding is about: shown where that is typed. */
export type FindingField = 'vaccine' | 'occurred_on' | 'expiry' | ScreeningQuestion | 'other'

const FIELD_OF: Record<string, FindingField> = {
  live_pregnancy: 'pregnant',
  live_immunosuppressed: 'immunosuppressed',
  component_allergy: 'vaccine',
  contraindicated: 'vaccine',
  refused: 'vaccine',
  expired_lot: 'expiry',
  too_early: 'occurred_on',
  too_close: 'occurred_on',
  duplicate_today: 'occurred_on',
  product_age: 'vaccine',
  wrong_vaccine: 'vaccine',
  live_interval: 'occurred_on',
  screening_fever: 'fever',
  screening_acute_illness: 'acute_illness',
  screening_heart_lung: 'abnormal_heart_lung',
  screening_consciousness: 'abnormal_consciousness',
  screening_severe_reaction: 'previous_severe_reaction',
  intussusception: 'intussusception',
  blood_products: 'blood_products_recent',
  immunosuppressant_stopped: 'immunosuppressant_stopped_recent',
  bcg_low_weight: 'weight_under_2000g',
  hepb_low_weight: 'weight_under_2000g',
  bcg_tuberculin: 'tuberculin_negative',
}

export const fieldOf = (f: Finding): FindingField => FIELD_OF[f.code] ?? 'other'

/** The findings about one field: a stop as an alert (said as it appears), a warning as a notice, a note as information. */
export function FindingNotes({ findings, field }: { findings: Finding[]; field: FindingField }) {
  const { t } = useTranslation()
  const mine = findings.filter((f) => fieldOf(f) === field)
  if (!mine.length) return null
  return (
    <div className={styles.findings} data-testid={`findings-${field}`}>
      {mine.map((f, i) => (
        <Alert
          key={`${f.code}-${f.antigen ?? ''}-${f.substance ?? ''}-${i}`}
          type={f.severity === 'stop' ? 'error' : f.severity === 'info' ? 'info' : 'warning'}
          role={f.severity === 'stop' ? 'alert' : undefined}
          title={`${t(`immunisations.finding.${f.severity === 'stop' || f.severity === 'info' ? f.severity : 'warn'}`)}: ${f.message}`}
          data-testid={`finding-${f.code}`}
        />
      ))}
    </div>
  )
}

/** A name as it is searched: small letters and digits only, so that "mmr" finds M-M-R II (and, by its key, the MMR vaccine under its Russian name). */
const plain = (s: string) => s.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '')

/**
 * The vaccine field: a select with search over the catalogue's products, those the clinic stocks
 * first (under their own heading), then every other; what is typed finds a product by its name,
 * its catalogue key (mmr, bcg: the abbreviations a nurse types in any language), its CVX code or an antigen's name.
 */
export function VaccinePicker({ catalogue, value, onChange, stockedFirst, label, control }: { catalogue: Catalogue | undefined; value: string; onChange: (key: string) => void; stockedFirst: boolean; label: string; control: ControlProps }) {
  const { t } = useTranslation()
  const chosen = catalogue?.vaccines.find((v) => v.key === value)
  const [query, setQuery] = useState<string | null>(null)
  const shown = query ?? chosen?.name ?? ''
  const antigenName = new Map((catalogue?.antigens ?? []).map((a) => [a.key, a.name]))
  const q = plain(query ?? '')
  const matches = (catalogue?.vaccines ?? []).filter((v) => !q || plain(v.name).includes(q) || plain(v.key).includes(q) || v.cvx === q || v.antigens.some((a) => plain(antigenName.get(a) ?? a).includes(q)))
  const stocked = new Set(catalogue?.clinic.stocked ?? [])
  const options = stockedFirst
    ? [
        ...matches.filter((v) => stocked.has(v.key)).map((v) => ({ value: v.key, label: v.name, group: t('immunisations.stocked') })),
        ...matches.filter((v) => !stocked.has(v.key)).map((v) => ({ value: v.key, label: v.name, group: t('immunisations.allVaccines') })),
      ]
    : matches.map((v) => ({ value: v.key, label: v.name }))
  return (
    <Combobox
      {...control}
      field
      activateFirst
      label={label}
      query={shown}
      onQueryChange={setQuery}
      options={options}
      emptyText={t('immunisations.noVaccine')}
      onChoose={(key) => {
        setQuery(null)
        onChange(key)
      }}
    />
  )
}

/** A product's antigens by name ("Diphtheria, Tetanus, Pertussis"). */
export const antigenNames = (catalogue: Catalogue | undefined, keys: string[]) => {
  const names = new Map((catalogue?.antigens ?? []).map((a) => [a.key, a.name]))
  return keys.map((k) => names.get(k) ?? k).join(', ')
}
