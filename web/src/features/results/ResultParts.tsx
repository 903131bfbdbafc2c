// The pieces every results screen shares: a flag as a tag with its words, an order's status,
// and the table of an order's results.
import { Table, Tag, Typography } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../components/ScrollRegion'
import { formatDayTime } from '../../lib/time'
import type { LabOrder, LabResult } from './api/types'
import { flagColor, isAbnormal, rangeNote, rangeText, resultText, statusColor } from './format'

/** A result's flag in words (Low, Critical high, Abnormal…), coloured only beside its words. */
export function FlagTag({ flag, delta }: { flag: string; delta?: string }) {
  const { t } = useTranslation()
  return (
    <>
      {flag !== '' && (
        <Tag color={flagColor(flag)} data-flag={flag}>
          {t(`results.flags.${flag}`)}
        </Tag>
      )}
      {delta && (
        <Tag color="purple" data-delta={delta}>
          {t(`results.delta.${delta}`)}
        </Tag>
      )}
    </>
  )
}

export function StatusTag({ status }: { status: string }) {
  const { t } = useTranslation()
  return (
    <Tag color={statusColor(status)} data-status={status}>
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
        <span key={r.id} style={{ whiteSpace: 'nowrap' }}>
          <Typography.Text>{r.label}: </Typography.Text>
          <FlagTag flag={r.flag} delta={r.delta} />
          {unranked(r) && (
            <Tag color="gold" data-range-note={r.range.note || 'none'}>
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
  return (
    <ScrollRegion label={t('results.resultsTitle')}>
      <Table<LabResult>
        size="small"
        rowKey="id"
        pagination={false}
        dataSource={results}
        style={{ minWidth: 640 }}
        columns={[
          { title: t('results.analyte'), dataIndex: 'label', render: (label: string, r) => label || r.analyte },
          {
            title: t('results.value'),
            key: 'value',
            render: (_, r) =>
              r.status === 'entered_in_error' ? (
                <div data-retracted={r.analyte}>
                  <Typography.Text delete type="secondary" style={{ whiteSpace: r.type === 'text' ? 'pre-wrap' : 'nowrap' }}>
                    {r.type === 'text' ? r.text : resultText(t, r, lang)}
                  </Typography.Text>
                  <Typography.Text type="danger" style={{ display: 'block' }}>
                    {t('results.retractedBecause', { reason: r.retract_reason })}
                    {r.retracted_at && ` · ${formatDayTime(r.retracted_at)}`}
                    {r.retracted_by_name && ` · ${r.retracted_by_name}`}
                  </Typography.Text>
                  {r.misfiled_outcome && (
                    <Typography.Text type="secondary" style={{ display: 'block' }} data-testid={`misfiled-outcome-${r.id}`}>
                      {t('results.misfiledResolvedAs', { how: t(`results.misfiledOutcomes.${r.misfiled_outcome}`) })}
                    </Typography.Text>
                  )}
                </div>
              ) : r.type === 'text' ? (
                <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0, maxWidth: 560 }}>{r.text}</Typography.Paragraph>
              ) : (
                <>
                  <Typography.Text strong={isAbnormal(r.flag)} style={{ whiteSpace: 'nowrap' }}>
                    {resultText(t, r, lang)}
                  </Typography.Text>
                  {r.refiled_from && (
                    <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12 }} data-testid={`refiled-${r.id}`}>
                      {t('results.refiledFrom')}
                    </Typography.Text>
                  )}
                </>
              ),
          },
          {
            title: t('results.flag'),
            key: 'flag',
            render: (_, r) => (
              <>
                <FlagTag flag={r.flag} delta={r.delta} />
                {/* A number no range judged says so where a flag would be (on a phone the range column is off-screen). */}
                {r.type === 'numeric' && r.flag === '' && <Tag data-unranked>{t('results.noRangeTag')}</Tag>}
              </>
            ),
          },
          {
            title: t('results.range'),
            key: 'range',
            render: (_, r) => (
              <>
                {rangeText(t, r.range, r.unit, lang)}
                {rangeNote(t, r.range.note) && (
                  <Typography.Text
                    type={r.range.note === 'any_sex' ? 'secondary' : undefined}
                    strong={r.range.note !== 'any_sex'}
                    data-range-note={r.range.note}
                    style={{ display: 'block' }}
                  >
                    {rangeNote(t, r.range.note)}
                  </Typography.Text>
                )}
                {r.range.source === 'lab' && (
                  <Tag style={{ marginInlineStart: 8 }} data-range-source="lab">
                    {t('results.labRange')}
                  </Tag>
                )}
              </>
            ),
          },
          { title: t('results.resultStatus'), key: 'status', render: (_, r) => t(`results.resultStatuses.${r.status}`) },
          ...(showTime
            ? [
                {
                  title: t('results.recorded'),
                  key: 'recorded',
                  render: (_: unknown, r: LabResult) => `${formatDayTime(r.recorded_at)} · ${r.recorded_by_name}`,
                },
              ]
            : []),
          ...(action ? [{ title: <span className="visually-hidden">{t('results.retract')}</span>, key: 'action', render: (_: unknown, r: LabResult) => action(r) }] : []),
        ]}
      />
    </ScrollRegion>
  )
}
