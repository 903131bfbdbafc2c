// What the chart card shows under a dose: the screening asked before it (stored with it) and the
// reactions after it — each with its outcome, a serious one not yet reported marked so, one
// entered in error struck through with its reason.
import { useTranslation } from 'react-i18next'
import { formatDay } from '../../lib/time'
import { Button } from '../../light/Button'
import { Tag } from '../../light/Tag'
import { useCatalogue } from './api/getCatalogue'
import { SCREENING_QUESTIONS, type Reaction, type Screening } from './api/types'
import { feverFrom, screeningQuestion } from './ScreeningFields'
import styles from './immunisations.module.css'

/** The screening before a dose, as answered: a summary line that opens to each answer; a dose given here with none is marked not screened. */
export function ScreeningSummary({ s, optional = false }: { s: Screening | undefined; /** Nothing shown when nothing was asked (a deferral recorded without a screening). */ optional?: boolean }) {
  const { t, i18n } = useTranslation()
  const from = feverFrom(useCatalogue().data)
  const answered = SCREENING_QUESTIONS.filter((q) => s?.[q] !== null && s?.[q] !== undefined)
  if (!s || (!answered.length && s.temperature_c == null)) {
    if (optional) return null
    // Saved before the screening was asked, or through the API without it: the record says so.
    return (
      <Tag color="red" data-testid="not-screened">
        {t('immunisations.notScreened')}
      </Tag>
    )
  }
  const yes = answered.filter((q) => s[q])
  const temperature = s.temperature_c == null ? '' : `${new Intl.NumberFormat(i18n.language, { minimumFractionDigits: 1, maximumFractionDigits: 1 }).format(s.temperature_c)} °C`
  return (
    <details className={styles.small} data-testid="screening-summary">
      <summary>{t('immunisations.screeningSummary', { count: answered.length, yes: yes.length })}</summary>
      <ul className={styles.reactions}>
        {temperature && <li>{t('immunisations.temperatureIs', { value: temperature })}</li>}
        {answered.map((q) => (
          <li key={q}>
            {screeningQuestion(t, q, from, i18n.language)} <strong>{t(`immunisations.answer.${s[q] ? 'yes' : 'no'}`)}</strong>
          </li>
        ))}
      </ul>
    </details>
  )
}

export function ReactionLine({ x, canWrite, onError, onFollowUp }: { x: Reaction; canWrite: boolean; onError(x: Reaction): void; onFollowUp(x: Reaction): void }) {
  const { t } = useTranslation()
  const inError = x.status === 'entered_in_error'
  const what = [t(`immunisations.reaction.${x.reaction}`, { defaultValue: x.reaction }), t(`immunisations.severity.${x.severity}`)].join(', ')
  const unreported = !inError && x.serious && !x.reported_on
  const onset = x.onset_time ? `${formatDay(x.onset_on)} ${x.onset_time}` : formatDay(x.onset_on)
  const line = (
    <>
      <Tag color={x.serious || x.severity === 'severe' ? 'red' : 'orange'}>{t('immunisations.aefi')}</Tag> <strong>{what}</strong>
      {x.serious && <> · {t('immunisations.serious')}</>} · {t('immunisations.onset', { date: onset })}
      {x.outcome && (
        <>
          {' '}
          · <span className={styles.outcome}>{t('immunisations.outcomeIs', { outcome: t(`immunisations.outcome.${x.outcome}`) })}</span>
        </>
      )}
      {x.description && <> · {x.description}</>}
      {x.reported_to && <> · {t('immunisations.reportedTo', { to: x.reported_to })}</>}
      {x.reported_on && <> · {t('immunisations.reportedOn', { date: formatDay(x.reported_on) })}</>}
    </>
  )
  return (
    <li data-testid="reaction">
      {inError ? <s>{line}</s> : line}
      {unreported && (
        <>
          {' '}
          <Tag color="red" data-testid="unreported">
            {t('immunisations.notReported')}
          </Tag>
        </>
      )}
      {inError && <div className={styles.errorReason}>{t('immunisations.inErrorBecause', { reason: x.error_reason })}</div>}
      {canWrite && !inError && (
        <>
          {' '}
          <Button size="small" variant="text" aria-label={t('immunisations.followUpNamed', { what, date: formatDay(x.onset_on) })} onClick={() => onFollowUp(x)}>
            {t(unreported ? 'immunisations.recordReport' : 'immunisations.followUp')}
          </Button>{' '}
          <Button size="small" variant="dangerText" aria-label={t('immunisations.reactionInErrorNamed', { what, date: formatDay(x.onset_on) })} onClick={() => onError(x)}>
            {t('immunisations.inError')}
          </Button>
        </>
      )}
    </li>
  )
}
