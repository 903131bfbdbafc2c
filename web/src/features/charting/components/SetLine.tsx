import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { LineFindings, type Finding } from '../../../components/MedicineSafety'
import { writeNumber } from '../../../lib/number'
import { Button } from '../../../light/Button'
import { Checkbox } from '../../../light/Checkbox'
import { Input, TextArea } from '../../../light/Input'
import type { Item } from '../api/orderSets'
import type { Kept } from './ApplySetDialog'
import styles from './OrderSetDialogs.module.css'
import { byWeight, weightDose } from './weightDose'

interface Props {
  kept: Kept<Item>
  /** The patient's weight at this visit (kg), for doses by weight. */
  weight: number | null
  /** The safety check's findings on this line (an allergy, a duplicate): shown with role="alert" by LineFindings. */
  findings: Finding[]
  /** The server's refusal of this line. */
  error?: string
  onChange: (fn: (k: Kept<Item>) => void) => void
}

/** A medicine of the set: ticked or not, its dose and how it is taken editable, its findings and the reason they need. */
export function SetLine({ kept: k, weight, findings, error, onChange }: Props) {
  const { t } = useTranslation()
  const errorId = useId()
  const edit = (field: 'dose' | 'frequency' | 'duration' | 'instructions') => (
    <Input
      className={styles.small}
      aria-label={`${t(`rx.fields.${field}`)} — ${k.item.medicine}`}
      placeholder={t(`rx.fields.${field}`)}
      value={k.item[field]}
      disabled={!k.keep}
      onChange={(e) => onChange((x) => void (x.item[field] = e.target.value))}
    />
  )
  return (
    <div data-testid="set-line" className={styles.line}>
      <Checkbox checked={k.keep} onChange={(on) => onChange((x) => void (x.keep = on))}>
        <strong>{k.item.medicine}</strong>
      </Checkbox>
      <div className={styles.grid}>
        {edit('dose')}
        {edit('frequency')}
        {edit('duration')}
        <span className={styles.unit}>
          <Input
            className={styles.small}
            inputMode="decimal"
            autoComplete="off"
            maxLength={12}
            aria-label={`${t('rx.fields.quantity')} — ${k.item.medicine}`}
            placeholder={t('rx.fields.quantity')}
            value={k.item.quantity ?? ''}
            disabled={!k.keep}
            // A number only (the library's number field took nothing else), as text: "2.5" stays "2.5".
            onChange={(e) => {
              const v = e.target.value.trim()
              if (v === '' || /^\d*[.,]?\d*$/.test(v)) onChange((x) => void (x.item.quantity = v === '' ? null : v.replace(',', '.')))
            }}
          />
          {k.keep && k.item.unit && <span>{k.item.unit}</span> /* a disabled field's grey unit fails contrast */}
        </span>
      </div>
      {k.keep && byWeight(k.item.dose) && <ByWeight item={k.item} kg={weight} onUse={(dose) => onChange((x) => void (x.item.dose = dose))} />}
      {k.keep && <LineFindings findings={findings} />}
      {k.keep && (findings.some((f) => f.requires_reason) || error) && (
        <div className={styles.reason}>
          <TextArea
            aria-label={t('orderSets.reasonFor', { medicine: k.item.medicine })}
            placeholder={t('rx.safety.reasonPlaceholder')}
            rows={1}
            maxLength={500}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
            value={k.item.override_reason}
            onChange={(e) => onChange((x) => void (x.item.override_reason = e.target.value))}
          />
          {error && (
            <div id={errorId} className={styles.error}>
              {error}
            </div>
          )}
        </div>
      )}
    </div>
  )
}

/** A dose written per kilogram worked out at the weight measured at this visit, or a reminder to weigh the patient. */
function ByWeight({ item, kg, onUse }: { item: Item; kg: number | null; onUse: (dose: string) => void }) {
  const { t, i18n } = useTranslation()
  const w = kg ? weightDose(item.dose, item.medicine, kg) : null
  if (!kg || !w) return <span className={styles.strong}>{t('orderSets.noWeight')}</span>
  const n = (x: number) => writeNumber(x, i18n.language)
  const values = { perKg: n(w.perKg), kg: n(kg), mg: n(w.mg), ml: w.ml === undefined ? '' : n(w.ml) }
  return (
    <div className={styles.row} style={{ marginBottom: 6 }}>
      <span className={styles.muted}>{t(w.ml === undefined ? 'orderSets.weightDose' : 'orderSets.weightDoseMl', values)}</span>
      {w.capped && (
        <span className={styles.strong} data-testid="dose-capped">
          {t('orderSets.doseCapped', values)}
        </span>
      )}
      <Button size="small" variant="link" onClick={() => onUse(t(w.ml === undefined ? 'orderSets.doseMg' : 'orderSets.doseMgMl', values))}>
        {t('orderSets.useDose')}
      </Button>
    </div>
  )
}
