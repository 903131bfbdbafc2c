import { Alert } from 'antd'
import { useTranslation } from 'react-i18next'
import type { Finding } from '../api/types'
import { formatDay } from '../../../lib/time'
import { labelOf, severityLabel } from '../../../lib/labels'

/** The sentence that explains a finding, in the user's language. */
export function useFindingText() {
  const { t } = useTranslation()
  return (f: Finding) => {
    const severity = f.severity ? t(labelOf(severityLabel, f.severity) ?? f.severity) : ''
    const allergy = severity ? `${f.allergy} (${severity})` : f.allergy
    const what = f.substance || f.class
    switch (f.kind) {
      case 'allergy':
        return f.class ? t('rx.safety.allergyClass', { allergy, class: f.class }) : t('rx.safety.allergySubstance', { allergy, substance: f.substance })
      case 'allergy_class':
        return t('rx.safety.sameClass', { allergy, class: f.class })
      case 'cross_sensitivity':
        return t('rx.safety.cross', { allergy, class: f.class })
      case 'duplicate':
        return t('rx.safety.duplicate', { n: (f.other_line ?? 0) + 1, other: f.other_medicine, what })
      case 'duplicate_recent':
        return t('rx.safety.duplicateRecent', { id: f.other_prescription_id, date: f.other_date && formatDay(f.other_date), other: f.other_medicine, what })
      case 'allergies_unrecorded':
        return t('rx.safety.unrecorded')
    }
  }
}

/** A line's findings: red for a severe allergy (issuing is blocked without a reason), amber otherwise. */
export function LineFindings({ findings }: { findings: Finding[] }) {
  const { t } = useTranslation()
  const text = useFindingText()
  if (findings.length === 0) return null
  const blocking = findings.some((f) => f.blocking)
  return (
    <Alert
      type={blocking ? 'error' : 'warning'}
      showIcon
      role="alert"
      data-testid="rx-safety"
      title={blocking ? t('rx.safety.blockingTitle') : t('rx.safety.title')}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {findings.map((f) => (
            <li key={f.key}>{text(f)}</li>
          ))}
        </ul>
      }
      style={{ marginBottom: 8 }}
    />
  )
}
