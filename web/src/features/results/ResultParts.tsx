// The pieces every results screen shares: a flag as a tag with its words, an order's status,
// and the table of an order's results.
import { useMemo, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../components/ScrollRegion'
import { formatDayTime } from '../../lib/time'
import { Table, type Column } from '../../light/Table'
import { Tag } from '../../light/Tag'
import type { LabOrder, LabResult } from './api/types'
import { flagColor, isAbnormal, rangeNote, rangeText, resultText, statusColor } from './format'
import styles from './results.module.css'

const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ')

/** A result's flag in words (Low, Critical high, Abnormal…), coloured only beside its words. */
export function FlagTag({ flag, delta }: { flag: string; delta?: string }) {
  const { t } = useTranslation()
  return (
    <>
      {flag !== '' && (
        <Tag color={flagColor(flag)} className={styles.tag} data-flag={flag}>
          {t(`results.flags.${flag}`)}
        </Tag>
      )}
      {delta && (
        <Tag color="purple" className={styles.tag} data-delta={delta}>
          {t(`results.delta.${delta}`)}
        </Tag>
      )}
    </>
  )
}

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation()
  return (
    <Tag color={statusColor(status)} className={styles.tag} data-status={status}>
      {t(`results.status.${status}`)}
    </Tag>
  )
}

/** The flags an order's results carry that need attention, as tags ("Potassium: Critical high"). */
export function OrderFlags({ order }: { order: LabOrder }) {
  const { t } = useTranslation()
  // A number no reference range judged is never shown as normal: it says so.
  const unranked = (r: LabResult) => r.type === 'numeric' && r.flag === ''
  const flagged = order.results.filter((r) => isAbnormal(r.flag) || r.delta || unranked(r))
  if (flagged.length === 0) return order.results.some((r) => r.flag === 'N') ? <FlagTag flag="N" /> : null
  return (
    <>
      {flagged.map((r) => (
        <span key={r.id} className={styles.nowrap}>
          <span>{r.label}: </span>
          <FlagTag flag={r.flag} delta={r.delta} />
          {unranked(r) && (
            <Tag color="gold" className={styles.tag} data-range-note={r.range.note || 'none'}>
              {t('results.noRangeTag')}
            </Tag>
          )}
        </span>
      ))}
    </>
  )
}

/** An order's results: analyte, value (both units when typed in another), flag, range; a
 * result entered in error struck through with its reason; `action` adds a last column. */
export function ResultsTable({ results, showTime, action }: { results: LabResult[]; showTime?: boolean; action?: (r: LabResult) => ReactNode }) {
  const { t, i18n } = useTranslation()
  const lang = i18n.language
  const columns = useMemo<Column<LabResult>[]>(
    () => [
      { key: 'label', header: t('results.analyte'), cell: (r) => r.label || r.analyte },
      {
        key: 'value',
        header: t('results.value'),
        cell: (r) =>
          r.status === 'entered_in_error' ? (
            <div data-retracted={r.analyte}>
              <del className={cx(styles.secondary, r.type === 'text' ? styles.preWrap : styles.nowrap)}>{r.type === 'text' ? r.text : resultText(t, r, lang)}</del>
              <span className={cx(styles.danger, styles.block)}>
                {t('results.retractedBecause', { reason: r.retract_reason })}
                {r.retracted_at && ` · ${formatDayTime(r.retracted_at)}`}
                {r.retracted_by_name && ` · ${r.retracted_by_name}`}
              </span>
              {r.misfiled_outcome && (
                <span className={cx(styles.secondary, styles.block)} data-testid={`misfiled-outcome-${r.id}`}>
                  {t('results.misfiledResolvedAs', { how: t(`results.misfiledOutcomes.${r.misfiled_outcome}`) })}
                </span>
              )}
            </div>
          ) : r.type === 'text' ? (
            <p className={styles.paragraph}>{r.text}</p>
          ) : (
            <>
              <span className={styles.nowrap}>{isAbnormal(r.flag) ? <strong>{resultText(t, r, lang)}</strong> : resultText(t, r, lang)}</span>
              {r.refiled_from && (
                <span className={cx(styles.secondary, styles.block, styles.small)} data-testid={`refiled-${r.id}`}>
                  {t('results.refiledFrom')}
                </span>
              )}
            </>
          ),
      },
      {
        key: 'flag',
        header: t('results.flag'),
        cell: (r) => (
          <>
            <FlagTag flag={r.flag} delta={r.delta} />
            {/* A number no range judged says so where a flag would be (on a phone the range column is off-screen). */}
            {r.type === 'numeric' && r.flag === '' && (
              <Tag className={styles.tag} data-unranked>
                {t('results.noRangeTag')}
              </Tag>
            )}
          </>
        ),
      },
      {
        key: 'range',
        header: t('results.range'),
        cell: (r) => (
          <>
            {rangeText(t, r.range, r.unit, lang)}
            {rangeNote(t, r.range.note) && (
              <span className={cx(styles.block, r.range.note === 'any_sex' ? styles.secondary : styles.strong)} data-range-note={r.range.note}>
                {rangeNote(t, r.range.note)}
              </span>
            )}
            {r.range.source === 'lab' && (
              <Tag className={cx(styles.tag, styles.tagGap)} data-range-source="lab">
                {t('results.labRange')}
              </Tag>
            )}
          </>
        ),
      },
      { key: 'status', header: t('results.resultStatus'), cell: (r) => t(`results.resultStatuses.${r.status}`) },
      ...(showTime ? [{ key: 'recorded', header: t('results.recorded'), cell: (r: LabResult) => `${formatDayTime(r.recorded_at)} · ${r.recorded_by_name}` }] : []),
      ...(action ? [{ key: 'action', header: <span className="visually-hidden">{t('results.retract')}</span>, cell: (r: LabResult) => action(r) }] : []),
    ],
    [t, lang, showTime, action],
  )
  return (
    <ScrollRegion label={t('results.resultsTitle')}>
      <div className={styles.wide640}>
        <Table<LabResult> size="small" rowKey={(r) => r.id} rows={results} columns={columns} label={t('results.resultsTitle')} />
      </div>
    </ScrollRegion>
  )
}
