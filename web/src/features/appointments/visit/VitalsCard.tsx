import { memo, useId } from 'react'
import { useTranslation } from 'react-i18next'
import { NumberInput } from '../../../components/NumberInput'
import { formatDay } from '../../../lib/time'
import { Field } from '../../../light/Field'
import { Tag } from '../../../light/Tag'
import type { Vitals } from '../api/types'
import { bmi, flagOf, VITAL_FIELDS, type VitalBand, type VitalFlag } from '../vitals'
import { useDraftError, useDraftValue } from './draft'
import { Section } from './Section'
import styles from './visit.module.css'
import { useVisitDraft } from './VisitFormProvider'

/**
 * The vitals, with the BMI computed as they are typed. Inside the visit's form. A saved value
 * shows the server's flag for the patient's age (flags); a value being typed is flagged at
 * once from the same bands, sent with the visit (bands), as the server will flag it. Each
 * field follows its own value: typing one renders it (and the BMI), not the card.
 */
export const VitalsCard = memo(function VitalsCard({
  disabled,
  bands,
  flags,
  saved,
  head = true,
}: {
  disabled: boolean
  bands: VitalBand[]
  flags: Record<string, VitalFlag>
  saved: Partial<Vitals>
  /** Head circumference is asked (a young child's visit). */
  head?: boolean
}) {
  const { t } = useTranslation()
  return (
    <Section id="visit-vitals" title={t('visit.sections.vitals')} extra={<CopiedFrom />}>
      <div className={styles.vitals}>
        {VITAL_FIELDS.filter((f) => head || f.key !== 'head_circumference').map((f) => (
          <VitalField key={f.key} name={f.key} unit={t(`visit.units.${f.unit}`)} disabled={disabled} bands={bands} flag={flags[f.key]} saved={saved[f.key]} />
        ))}
        <Bmi />
      </div>
    </Section>
  )
})

/** The "copied — taken on <date>" mark of vitals copied forward, until one is measured. */
function CopiedFrom() {
  const { t } = useTranslation()
  const copiedFrom = useDraftValue<string | undefined>(useVisitDraft(), 'vitals_copied_from')
  return copiedFrom ? <Tag data-testid="vitals-copied">{t('copyForward.copiedOn', { date: formatDay(copiedFrom) })}</Tag> : null
}

const VitalField = memo(function VitalField({ name, unit, disabled, bands, flag, saved }: { name: keyof Vitals; unit: string; disabled: boolean; bands: VitalBand[]; flag?: VitalFlag; saved: number | null | undefined }) {
  const { t } = useTranslation()
  const draft = useVisitDraft()
  const path = `vitals.${name}`
  const value = useDraftValue<number | null | undefined>(draft, path)
  const error = useDraftError(draft, path)
  const shown = value === saved ? flag : flagOf(bands, name, value)
  return (
    <Field label={t(`visit.vitals.${name}`)} error={error} help={flagged(shown) ? <Flag flag={shown!} /> : undefined}>
      {(c) => <NumberInput {...c} unit={unit} disabled={disabled} value={value} onChange={(v) => draft.set(path, v)} />}
    </Field>
  )
})

/** The body mass index of the weight and height typed, said as a term and its value, named by its term (as the library's field was). */
function Bmi() {
  const { t } = useTranslation()
  const id = useId()
  const draft = useVisitDraft()
  const weight = useDraftValue<number | null | undefined>(draft, 'vitals.weight')
  const height = useDraftValue<number | null | undefined>(draft, 'vitals.height')
  const current = bmi({ weight: weight ?? null, height: height ?? null })
  return (
    <dl className={styles.bmi}>
      <dt id={id}>{t('visit.vitals.bmi')}</dt>
      <dd data-testid="bmi" aria-labelledby={id}>
        {current ?? '—'} {current !== null && <span className={styles.unit}>{t('visit.units.bmi')}</span>}
      </dd>
    </dl>
  )
}

const MARKS: Record<string, string> = { L: '↓', H: '↑', LL: '↓↓', HH: '↑↑' }
const SIGNS: Record<string, string> = { '<': '<', '>': '>', '>=': '≥' }

const flagged = (flag?: VitalFlag) => !!flag && !!MARKS[flag.flag]

/** A vital outside the usual range for the patient's age band, said in words and arrows with the limit crossed, never by colour alone. */
function Flag({ flag }: { flag: VitalFlag }) {
  const { t, i18n } = useTranslation()
  const limit = flag.when && flag.limit != null ? ` · ${SIGNS[flag.when]} ${new Intl.NumberFormat(i18n.language).format(flag.limit)}` : ''
  return (
    <strong className={styles.flag} data-testid="vital-flag" data-flag={flag.flag} title={flag.source}>
      {`${MARKS[flag.flag]} ${t(`visit.flag.${flag.flag}`, { ages: flag.ages })}${limit}`}
    </strong>
  )
}
