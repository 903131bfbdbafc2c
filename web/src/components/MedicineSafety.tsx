import { useTranslation } from 'react-i18next'
import type { Schema } from '../lib/schema'
import { formatDay } from '../lib/time'
import { labelOf, severityLabel } from '../lib/labels'
import { Alert } from '../light/Alert'
import { Tag } from '../light/Tag'
import { doseFindingText } from './doseFindingText'
import styles from './MedicineSafety.module.css'

/** A safety finding of a prescription line (an allergy, duplicate therapy, an interaction), as the server checks it. */
export type Finding = Schema<'SafetyFinding'>

const TIER_COLOUR = { hard: 'red', high: 'orange', low: 'blue' } as const

/** Whether a finding stands in the way of saving until a reason is given (the server's word). */
export const needsReason = (f: Finding) => f.requires_reason

/** The sentence that explains a finding, in the user's language. */
export function useFindingText() {
  const { t, i18n } = useTranslation()
  return (f: Finding) => {
    const severity = f.severity && f.kind !== 'interaction' ? t(labelOf(severityLabel, f.severity) ?? f.severity) : ''
    const allergy = severity ? `${f.allergy} (${severity})` : f.allergy
    const what = f.substance || f.class
    const date = f.other_date && formatDay(f.other_date)
    // A medicine recorded as taken (from elsewhere, over the counter): "taken (recorded <date>, from elsewhere)".
    // Stopped but still acting (its washout): "stopped on <date>, still active for about N weeks".
    const source = f.other_source && t(`rx.safety.takenSource.${f.other_source}`)
    const taken =
      f.other_source &&
      (f.other_stopped_on ? t('rx.safety.takenStopped', { stopped: formatDay(f.other_stopped_on), count: f.active_weeks ?? 1, source }) : t('rx.safety.taken', { date, source }))
    const dose = doseFindingText(f, t, i18n.language) // a dose by weight (issue 59)
    if (dose) return dose
    switch (f.kind) {
      case 'allergy':
        if (f.unrecognised) return t('rx.safety.unrecognised', { allergy, substance: f.substance })
        return f.class ? t('rx.safety.allergyClass', { allergy, class: f.class }) : t('rx.safety.allergySubstance', { allergy, substance: f.substance })
      case 'allergy_class':
        return t('rx.safety.sameClass', { allergy, class: f.class })
      case 'cross_sensitivity':
        // A side-chain group's name is a sentence of its own ("Same side chain as amoxicillin and ampicillin").
        if (f.basis === 'side_chain') return t('rx.safety.crossGroup', { allergy, class: f.class })
        return f.basis ? t('rx.safety.crossBasis', { allergy, class: f.class, basis: t(`rx.safety.basis.${f.basis}`) }) : t('rx.safety.cross', { allergy, class: f.class })
      case 'allergy_unspecified':
        return t('rx.safety.unspecified', { allergy, class: f.class })
      case 'duplicate':
        return t('rx.safety.duplicate', { n: (f.other_line ?? 0) + 1, other: f.other_medicine, what })
      case 'duplicate_recent':
        if (f.on_hand_days)
          return t('rx.safety.stockOnHand', { id: f.other_prescription_id, date, other: f.other_medicine, what, days: f.on_hand_days, until: formatDay(f.supply_until ?? '') })
        if (f.renews) return t('rx.safety.renews', { id: f.other_prescription_id, date, other: f.other_medicine, until: formatDay(f.supply_until ?? '') })
        return f.supply_until
          ? t('rx.safety.duplicateSupply', { id: f.other_prescription_id, date, other: f.other_medicine, what, until: formatDay(f.supply_until) })
          : t('rx.safety.duplicateRecent', { id: f.other_prescription_id, date, other: f.other_medicine, what })
      case 'duplicate_taken':
        return t('rx.safety.duplicateTaken', { other: f.other_medicine, what, taken })
      case 'interaction': {
        const args = { severity: t(`rx.safety.severity.${f.severity}`), other: f.other_medicine, effect: t(`rx.safety.effect.${f.effect}`), action: t(`rx.safety.action.${f.action}`) }
        if (taken) return t('rx.safety.interactionTaken', { ...args, taken })
        return f.other_prescription_id ? t('rx.safety.interactionRecent', { ...args, id: f.other_prescription_id, date }) : t('rx.safety.interaction', args)
      }
      case 'allergies_unrecorded':
        return t('rx.safety.unrecorded')
      case 'reliever_overuse':
        return relieverText(f, t, i18n.language)
      case 'reliever_oral':
        return t('rx.safety.relieverOral')
    }
  }
}

/**
 * The reliever prompt (the pharmacist's review of 2026-11-29): the canisters of the year, the
 * risk they mean, whether the patient has an ICS-containing treatment, and what to consider in
 * asthma or COPD as the visit's diagnoses say (both when they say neither).
 */
function relieverText(f: Finding, t: (key: string, args?: Record<string, unknown>) => string, lang: string) {
  const count = f.count ?? 0
  const parts = [t('rx.safety.relieverCount', { count })]
  if (f.condition !== 'copd') {
    parts.push(t(f.urgent ? 'rx.safety.relieverUrgent' : 'rx.safety.relieverRisk'))
    parts.push(t(f.no_ics ? 'rx.safety.relieverNoIcs' : 'rx.safety.relieverIcs'))
    parts.push(t('rx.safety.relieverAsthma'))
  }
  if (f.condition !== 'asthma') parts.push(t('rx.safety.relieverCopd'))
  return parts.join(lang.startsWith('zh') ? '' : ' ') // Chinese runs its sentences on
}

/** What a finding's tag says: an allergy or how strongly to avoid, an interaction's severity, a duplicate. */
function tagKey(f: Finding) {
  if (f.kind === 'interaction') return `rx.safety.tag.${f.severity === 'contraindicated' ? 'contraindicated' : f.severity === 'major' ? 'major' : 'moderate'}`
  if (f.tier === 'low') return 'rx.safety.tag.caution'
  if (f.dosing) return 'rx.safety.doseTag'
  if (f.kind === 'duplicate' || f.kind === 'duplicate_recent' || f.kind === 'duplicate_taken') return 'rx.safety.tag.duplicate'
  return f.tier === 'hard' ? 'rx.safety.tag.allergy' : 'rx.safety.tag.avoid'
}

/** A finding's tier as a tag (none for the unrecorded-allergies warning, which says it all). */
export function TierTag({ f }: { f: Finding }) {
  const { t } = useTranslation()
  if (f.kind === 'allergies_unrecorded') return null
  return (
    <Tag color={TIER_COLOUR[f.tier]} className={styles.tag}>
      {t(tagKey(f))}
    </Tag>
  )
}

/** A line's findings: red when one blocks, amber when one needs a reason, blue for cautions alone. */
export function LineFindings({ findings, title }: { findings: Finding[]; title?: string }) {
  const { t } = useTranslation()
  const text = useFindingText()
  if (findings.length === 0) return null
  const blocking = findings.some((f) => f.blocking)
  const reason = findings.some(needsReason)
  // The alert is announced as it appears (a finding met while typing a medicine's name).
  return (
    <div className={styles.findings}>
      <Alert
        type={blocking ? 'error' : reason ? 'warning' : 'info'}
        role="alert"
        data-testid="rx-safety"
        title={title ?? (blocking ? t('rx.safety.blockingTitle') : reason ? t('rx.safety.title') : t('rx.safety.cautionTitle'))}
        description={
          <ul className={styles.list}>
            {findings.map((f) => (
              <li key={f.key} data-tier={f.tier}>
                <TierTag f={f} />
                {text(f)}
                {(f.kind === 'interaction' || f.dosing) && f.source && (
                  <div className={styles.source}>
                    {t('rx.safety.source', { source: '' })}
                    {/* The shipped rules cite English sources; a clinic's rule is in its own words. */}
                    <span lang={f.key.includes(':clinic-') ? undefined : 'en'}>{f.source}</span>
                  </div>
                )}
              </li>
            ))}
          </ul>
        }
      />
    </div>
  )
}
