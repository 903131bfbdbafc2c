// A line's dose by weight (issue 59, item 6): for a medicine the dose table has rows for, the
// prescriber ticks "Dose by weight", sees the child's latest weight and its day, chooses mg/kg
// (the table's usual pre-filled) and doses a day, and reads the dose in mg — for a liquid the mL
// to give — with the most a dose and a day may hold and the table's source. The dose fills the
// line's dose field and the doses a day its frequency; the line keeps the numbers (by_weight)
// for the safety check, which checks what prints and says when the two disagree.
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { echoNumber, readNumber, writeNumber } from '../../../lib/number'
import { formatDay } from '../../../lib/time'
import { Alert } from '../../../light/Alert'
import { Checkbox } from '../../../light/Checkbox'
import { Field } from '../../../light/Field'
import { Input, Select } from '../../../light/Input'
import { NumberNote } from '../../../light/NumberInput'
import type { Item } from '../api/types'
import { doseFor, maxDay, type LineDoses, type WeightFacts } from './dosing'
import styles from './DoseByWeight.module.css'
import { useSelected, type EditorStore } from './editorStore'

export interface LineDosing {
  doses: LineDoses
  /** The patient's latest recorded weight; null when none is. */
  weight: WeightFacts | null
}

type ByWeight = NonNullable<Item['by_weight']>

const PER_DAY = [1, 2, 3, 4, 5, 6]

export function DoseByWeight({ store, lineKey, index, dosing }: { store: EditorStore; lineKey: number; index: number; dosing: LineDosing }) {
  const { t, i18n } = useTranslation()
  const lang = i18n.language
  const byWeight = useSelected(store, (s) => s.lines.find((l) => l.key === lineKey)?.item.by_weight)
  const [typed, setTyped] = useState<string | null>(null)
  const { doses, weight } = dosing
  const rows = doses.rows
  const row = rows.find((r) => r.indication === byWeight?.indication) ?? rows[0]
  const kg = weight?.kg ?? 0
  const n = (v: number) => echoNumber(v, lang)

  /**
   * Sets the line's numbers, the frequency they make in its frequency field and, with a
   * weight, the dose in its dose field (the check reads what prints; a dose typed by hand
   * afterwards drops the numbers, PrescriptionLine).
   */
  const apply = (next: ByWeight) => {
    const r = rows.find((x) => x.indication === next.indication) ?? rows[0]
    const frequency = t('rx.weight.timesADay', { count: next.doses_per_day || r.doses_per_day })
    if (!kg) return store.update(lineKey, { by_weight: { ...next, dose_mg: 0 }, frequency })
    const d = doseFor(r, next.mg_per_kg, kg, doses.strength)
    const dose = d.ml !== undefined ? `${writeNumber(d.ml, lang)} ${t('rx.weight.unit.ml')}` : `${writeNumber(d.mg, lang)} ${t('rx.weight.unit.mg')}`
    store.update(lineKey, { by_weight: { ...next, dose_mg: d.mg }, dose, frequency })
  }
  const start = (r = row) => apply({ mg_per_kg: r.mg_per_kg, doses_per_day: r.doses_per_day, indication: rows.length > 1 ? r.indication : '', dose_mg: 0, weight_kg: 0, weight_on: '' })

  const toggle = (
    <Checkbox
      checked={!!byWeight}
      onChange={(on) => {
        setTyped(null)
        if (on) start()
        else store.update(lineKey, { by_weight: undefined })
      }}
    >
      {t('rx.weight.toggle')}
    </Checkbox>
  )
  // The box stays where it is as it is ticked (the keyboard's focus stays on it).
  if (!byWeight) return <div className={styles.toggle}>{toggle}</div>

  const dose = kg ? doseFor(row, byWeight.mg_per_kg, kg, doses.strength) : null
  const perDay = byWeight.doses_per_day || row.doses_per_day
  const dayMost = kg ? maxDay(row, kg) : 0
  return (
    <div className={styles.toggle}>
      {toggle}
      <section className={styles.panel} aria-label={t('rx.weight.panel', { n: index + 1 })}>
      {!weight && <Alert type="warning" title={t('rx.weight.missing')} />}
      {weight && (
        <p className={styles.weight}>
          {t('rx.weight.weightOn', { weight: n(weight.kg), date: formatDay(weight.on, lang) })}
          {weight.stale && (
            <span className={styles.warn} role="status">
              {' '}
              {t('rx.weight.stale', { count: weight.age_days, limit: weight.max_age_days })}
            </span>
          )}
        </p>
      )}
      <div className={styles.fields}>
        {rows.length > 1 && (
          <Field label={t('rx.weight.indication')} className={styles.field}>
            {(c) => (
              <Select
                {...c}
                value={row.indication}
                onChange={(ind) => {
                  setTyped(null)
                  start(rows.find((r) => r.indication === ind) ?? rows[0])
                }}
                options={rows.map((r) => ({ value: r.indication, label: t(`rx.weight.indications.${r.indication}`, { defaultValue: r.indication }) }))}
              />
            )}
          </Field>
        )}
        <Field label={t('rx.weight.mgPerKg')} className={styles.field} help={<NumberNote text={typed ?? undefined} unit={t('rx.weight.unit.mgPerKg')} />}>
          {(c) => (
            <Input
              {...c}
              inputMode="decimal"
              autoComplete="off"
              maxLength={8}
              value={typed ?? writeNumber(byWeight.mg_per_kg, lang)}
              onChange={(e) => {
                setTyped(e.target.value)
                const r = readNumber(e.target.value, lang)
                if (r.value !== undefined && r.value > 0 && r.value <= 1000) apply({ ...byWeight, mg_per_kg: r.value })
              }}
            />
          )}
        </Field>
        <Field label={t('rx.weight.perDay')} className={styles.field}>
          {(c) => <Select {...c} value={perDay} onChange={(v) => apply({ ...byWeight, doses_per_day: v })} options={PER_DAY.map((v) => ({ value: v, label: String(v) }))} />}
        </Field>
      </div>
      {dose && (
        <div className={styles.result} data-testid="dose-by-weight">
          <strong>
            {dose.ml !== undefined
              ? t('rx.weight.doseLiquid', { mg: n(dose.mg), ml: n(dose.ml) })
              : t('rx.weight.dose', { mg: n(dose.mg) })}
          </strong>{' '}
          {t('rx.weight.day', { mg: n(Math.round(dose.mg * perDay * 10) / 10) })}
          <div>
            {t('rx.weight.limits', { weight: n(kg), dose: n(dose.maxDose), day: n(Math.round(dayMost * 10) / 10) })}
            {' · '}
            {t('rx.weight.usual', { mgkg: n(row.mg_per_kg), count: row.doses_per_day })}
          </div>
          {dose.capped && <div className={styles.warn}>{t('rx.weight.capped', { mg: n(dose.mg) })}</div>}
          {dose.maxDose > 0 && dose.mg > dose.maxDose * 1.0001 && <div className={styles.warn}>{t('rx.weight.above', { mg: n(dose.maxDose) })}</div>}
          {dayMost > 0 && dose.mg * perDay > dayMost * 1.0001 && <div className={styles.warn}>{t('rx.weight.aboveDay', { mg: n(Math.round(dayMost * 10) / 10) })}</div>}
        </div>
      )}
      <div className={styles.source}>
        {/* The table's numbers said in the user's language; its source cited as written (English), said so. */}
        <div data-testid="dose-table-numbers">
          {t('rx.weight.tableSays', { mg: n(row.mg_per_kg), count: row.doses_per_day })}
          {row.max_dose_mg > 0 && ` ${t('rx.weight.tableMaxDose', { mg: n(row.max_dose_mg) })}`}
          {row.max_day_mg > 0 && ` ${t('rx.weight.tableMaxDay', { mg: n(row.max_day_mg) })}`}
        </div>
        {lang.startsWith('en') ? (
          <div>
            {t('rx.weight.source')} <span lang="en">{row.source}</span>
          </div>
        ) : (
          <details>
            <summary>{t('rx.weight.sourceInEnglish')}</summary>
            <span lang="en">{row.source}</span>
          </details>
        )}
        {row.confirmed !== 'yes' && <div className={styles.unconfirmed}>{t('rx.weight.unconfirmed')}</div>}
      </div>
      </section>
    </div>
  )
}
