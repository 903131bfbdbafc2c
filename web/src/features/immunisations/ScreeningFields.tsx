// The screening before a dose (Viet Nam's QĐ 1575/QĐ-BYT 2023 checklist; ACIP contraindications
// and precautions): each question a row of Yes / No / Not asked, those that concern the chosen
// vaccine first, then the others; the temperature measured, in °C. Each finding of the server's
// check appears under the question that gave it.
import { useTranslation } from 'react-i18next'
import { readNumber } from '../../lib/number'
import { Field } from '../../light/Field'
import { Input } from '../../light/Input'
import { RadioGroup } from '../../light/RadioGroup'
import { SCREENING_QUESTIONS, type Catalogue, type Finding, type ScreeningQuestion, type Vaccine } from './api/types'
import { FindingNotes, questionsFor } from './parts'
import styles from './immunisations.module.css'

export type Answer = 'yes' | 'no' | 'unknown'
export type Answers = Record<ScreeningQuestion, Answer>

export const unanswered = (): Answers => Object.fromEntries(SCREENING_QUESTIONS.map((q) => [q, 'unknown'])) as Answers

export const answerOf = (a: Answer) => (a === 'yes' ? true : a === 'no' ? false : null)

/** The questions every dose is asked (QĐ 1575/QĐ-BYT; the server's CoreScreening): answered yes or no, never left unasked. */
export const CORE_SCREENING: ScreeningQuestion[] = ['fever', 'acute_illness', 'abnormal_heart_lung', 'abnormal_consciousness', 'previous_severe_reaction']

/** The core questions not answered (a fever is answered by a temperature typed too). */
export const unscreened = (answers: Answers, temperature: string): ScreeningQuestion[] =>
  CORE_SCREENING.filter((q) => answers[q] === 'unknown' && !(q === 'fever' && temperature.trim()))

/** The temperature typed, in °C (a comma or a point), or null when none or not a number. */
export function temperatureOf(text: string, lang: string): number | null {
  if (!text.trim()) return null
  const r = readNumber(text.trim(), lang)
  return r.value ?? null
}

/** Whether the temperature typed reads outside 30.0–44.0 °C (the server's limits) or not as a number. */
export function badTemperature(text: string, lang: string) {
  if (!text.trim()) return false
  const c = temperatureOf(text, lang)
  return c === null || c < 30 || c > 44
}

export function ScreeningFields({
  vaccine,
  answers,
  onAnswer,
  temperature,
  onTemperature,
  temperatureError,
  missing = [],
  findings,
  feverFrom = 38,
  ageMonths,
}: {
  vaccine: Vaccine | undefined
  answers: Answers
  onAnswer(q: ScreeningQuestion, a: Answer): void
  temperature: string
  onTemperature(text: string): void
  temperatureError?: string
  missing?: ScreeningQuestion[]
  findings: Finding[]
  /** The clinic's programme's fever threshold (°C), said in the fever question. */
  feverFrom?: number
  /** The child's age in months on the day of the dose (unknown: every question). */
  ageMonths?: number
}) {
  const { t, i18n } = useTranslation()
  // Every dose's questions first, then the vaccine's own, then the rest.
  // Pregnancy is not asked of a child under 9 (the youngest any programme vaccinates girls for
  // HPV); it stays askable from then.
  const asked = (q: ScreeningQuestion) => q !== 'pregnant' || !(ageMonths !== undefined && ageMonths < 9 * 12)
  const first = [...CORE_SCREENING, ...questionsFor(vaccine).filter((q) => !CORE_SCREENING.includes(q))].filter(asked)
  const rest = SCREENING_QUESTIONS.filter((q) => !first.includes(q) && asked(q))
  const question = (q: ScreeningQuestion) => (
    <div key={q} className={styles.question}>
      <RadioGroup<Answer>
        legend={screeningQuestion(t, q, feverFrom, i18n.language)}
        look="button"
        size="small"
        value={answers[q]}
        required={CORE_SCREENING.includes(q)}
        error={missing.includes(q) ? t('immunisations.screeningRequired') : undefined}
        onChange={(a) => onAnswer(q, a)}
        options={(CORE_SCREENING.includes(q) ? (['yes', 'no'] as const) : (['yes', 'no', 'unknown'] as const)).map((a) => ({ value: a, label: t(`immunisations.answer.${a}`) }))}
      />
      <FindingNotes findings={findings} field={q} />
    </div>
  )
  return (
    <section className={styles.screening} aria-labelledby="screening-title" data-testid="screening">
      <h3 id="screening-title" className={styles.section}>
        {t('immunisations.screeningTitle')}
      </h3>
      <p className={`${styles.small} ${styles.muted}`}>{t('immunisations.screeningHint')}</p>
      <Field label={t('immunisations.temperature')} error={temperatureError} className={styles.temperature}>
        {(c) => (
          <span className={styles.unitInput}>
            <Input {...c} inputMode="decimal" maxLength={5} autoComplete="off" value={temperature} onChange={(e) => onTemperature(e.target.value)} />
            <span aria-hidden>°C</span>
          </span>
        )}
      </Field>
      <div className={styles.questions} data-testid="questions-first">
        {first.map(question)}
      </div>
      {rest.length > 0 && (
        <>
          <h4 className={styles.subsection}>{t('immunisations.screeningOther')}</h4>
          <div className={styles.questions} data-testid="questions-other">
            {rest.map(question)}
          </div>
        </>
      )}
    </section>
  )
}

/** The temperature (°C) from which the clinic's first programme's screening defers a dose (38 where none says). */
export function feverFrom(catalogue: Catalogue | undefined): number {
  const first = catalogue?.clinic.schedules[0]
  return catalogue?.schedules.find((s) => s.key === first)?.fever_from ?? 38
}

/** A screening question as asked, the fever's threshold the clinic's, written as the language writes a number. */
export function screeningQuestion(t: (key: string, options?: Record<string, unknown>) => string, q: ScreeningQuestion, from: number, lang: string): string {
  return t(`immunisations.screening.${q}`, { from: new Intl.NumberFormat(lang, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(from) })
}
