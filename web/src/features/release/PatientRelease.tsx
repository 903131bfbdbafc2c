import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useCan } from '../../lib/auth/can'
import { formatDay, formatDayTime } from '../../lib/time'
import { Alert } from '../../light/Alert'
import { Button } from '../../light/Button'
import { Card } from '../../light/Card'
import { Confirm } from '../../light/Confirm'
import { Dialog } from '../../light/Dialog'
import { Empty } from '../../light/Empty'
import { Spin } from '../../light/Spin'
import { Tag } from '../../light/Tag'
import { toast } from '../../light/Toast'
import { EyeIcon, LockIcon, UnlockIcon } from './icons'
import list from '../../components/itemList.module.css'
import { HoldDialog } from './HoldDialog'
import { useReleased } from './api/listReleased'
import { useRefreshRelease, useReleaseStatuses, type ReleaseKind, type ReleaseStatus } from './api/release'
import { releaseItem } from './api/releaseItem'
import styles from './release.module.css'

/** Who answers for an item of each kind, and so may release or hold it. */
const answersFor: Record<ReleaseKind, string> = { result: 'review results', document: 'issue documents', prescription: 'write prescription' }

function statusTag(s: ReleaseStatus, t: (k: string) => string) {
  if (s.visible) return <Tag color="green">{t('release.visible')}</Tag>
  if (s.why === 'held') return <Tag color="orange">{t('release.notVisibleHeld')}</Tag>
  if (s.why === 'withheld') return <Tag color="red">{t('release.notVisibleWithheld')}</Tag>
  return <Tag>{t('release.notVisible')}</Tag>
}

/** What the doctor should weigh before releasing s: a result usually given in person, a value outside the usual range, a document that prints results. */
function releaseWarnings(s: ReleaseStatus, t: (k: string) => string) {
  const out: string[] = []
  if (s.sensitive) out.push(t('release.warnInPerson'))
  if (s.abnormal) out.push(t('release.warnAbnormal'))
  if (s.prints_results) out.push(t('release.warnPrintsResults'))
  return out
}

/** The line saying who held or released it, and a hold's kind, category and review-by day. */
function decisionLine(s: ReleaseStatus, t: (k: string, o?: Record<string, unknown>) => string) {
  const d = s.decision
  if (!d) return null
  if (d.decision !== 'held') return t('release.releasedBy', { name: d.decided_by_name, at: formatDayTime(d.decided_at) })
  const parts = [t(d.hold_kind === 'withhold' ? 'release.withheldBy' : 'release.heldBy', { name: d.decided_by_name, at: formatDayTime(d.decided_at) })]
  if (d.category) parts.push(t(`release.category.${d.category}`))
  if (d.review_by) parts.push(t('release.reviewByOn', { day: formatDay(d.review_by) }))
  return parts.join(' · ') + (d.reason ? ` — ${d.reason}` : '')
}

/** The chart's card of what the patient can see: each result, document and prescription, why (not), their openings, and the doctor's release or hold. */
export function PatientRelease({ patientId }: { patientId: number }) {
  const { t } = useTranslation()
  const refresh = useRefreshRelease(patientId)
  const [holding, setHolding] = useState<ReleaseStatus | null>(null)
  // An item with something to weigh, asked about before it is released.
  const [asking, setAsking] = useState<ReleaseStatus | null>(null)
  const can = {
    result: useCan(answersFor.result),
    document: useCan(answersFor.document),
    prescription: useCan(answersFor.prescription),
  }
  const { data, isLoading } = useReleaseStatuses(patientId)
  const [preview, setPreview] = useState(false)
  const done = (text: string) => {
    toast.success(text)
    return refresh()
  }
  const doRelease = (s: ReleaseStatus) => releaseItem(s.kind, s.id, s.version).then(() => done(t('release.released')))
  // An item with something to weigh (given in person, abnormal, a document printing results) asks first.
  const release = (s: ReleaseStatus) => {
    if (releaseWarnings(s, t).length === 0) return void doRelease(s).catch(() => undefined)
    setAsking(s)
  }
  const items = data ?? []
  return (
    <Card level={3} title={t('release.title')} data-testid="patient-release">
      <p className={styles.hint}>{t('release.hint')}</p>
      <Button size="small" icon={<EyeIcon />} onClick={() => setPreview(true)}>
        {t('release.preview')}
      </Button>
      {isLoading ? (
        <div className={list.loading}>
          <Spin />
        </div>
      ) : items.length === 0 ? (
        <Empty small>{t('release.none')}</Empty>
      ) : (
        <ul className={list.list}>
          {items.map((s) => (
            <li key={`${s.kind}-${s.id}`} className={list.item} data-testid="release-item" aria-label={s.title}>
              <div className={list.meta}>
                <div className={`${list.title} ${list.row}`}>
                  <span>{s.title}</span>
                  <Tag className={styles.borderless}>{t(`release.kind.${s.kind}`)}</Tag>
                  {statusTag(s, t)}
                  {s.sensitive && <Tag color="purple">{t('release.inPersonTag')}</Tag>}
                </div>
                <div className={`${list.description} ${list.lines}`}>
                  <span>
                    {formatDay(s.date)} · {t(`release.why.${s.why}`)}
                  </span>
                  {s.decision && <span>{decisionLine(s, t)}</span>}
                  {s.hold_due && (
                    <span>
                      <Tag color="gold">{t('release.holdDue')}</Tag>
                    </span>
                  )}
                  {s.withdrawn && (
                    <span className={styles.warning}>{t(['withdrawn', 'no_result', 'cancelled'].includes(s.why) ? 'release.withdrawnShown' : 'release.changedShown')}</span>
                  )}
                  <span>{s.openings.count === 0 ? t('release.notOpened') : t('release.opened', { count: s.openings.count, at: formatDayTime(s.openings.latest[0]) })}</span>
                  {can[s.kind] && (s.can_release || s.can_hold) && (
                    <span className={styles.actions}>
                      {s.can_release && (
                        <Button size="small" icon={<UnlockIcon />} aria-label={t('release.releaseNamed', { title: s.title })} onClick={() => release(s)}>
                          {s.decision?.decision === 'held' ? t('release.releaseAgain') : t('release.release')}
                        </Button>
                      )}
                      {s.can_hold && (
                        <Button size="small" icon={<LockIcon />} aria-label={t('release.holdNamed', { title: s.title })} onClick={() => setHolding(s)}>
                          {s.decision?.decision === 'held' ? t('release.holdChange') : t('release.hold')}
                        </Button>
                      )}
                    </span>
                  )}
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <Confirm
        open={asking !== null}
        title={asking ? t('release.releaseTitle', { title: asking.title }) : ''}
        okText={t('release.release')}
        cancelText={t('release.close')}
        closeLabel={t('app.icons.close')}
        content={
          asking && (
            <div className={styles.warnings}>
              {releaseWarnings(asking, t).map((w) => (
                <Alert key={w} type="warning" title={w} />
              ))}
            </div>
          )
        }
        onCancel={() => setAsking(null)}
        onOk={async () => {
          if (asking) await doRelease(asking).catch(() => undefined)
          setAsking(null)
        }}
      />
      <Dialog open={preview} title={t('release.previewTitle')} closeLabel={t('release.close')} onClose={() => setPreview(false)}>
        <PatientPreview patientId={patientId} />
      </Dialog>
      {holding && (
        <HoldDialog
          item={holding}
          onClose={() => setHolding(null)}
          onHeld={(kind) => {
            setHolding(null)
            return done(t(kind === 'withhold' ? 'release.withheldDone' : 'release.heldDone'))
          }}
        />
      )}
    </Card>
  )
}

/** What the patient sees, as they see it (in the user's language). */
function PatientPreview({ patientId }: { patientId: number }) {
  const { t } = useTranslation()
  const { data, isLoading } = useReleased(patientId, true)
  if (isLoading)
    return (
      <div className={list.loading}>
        <Spin />
      </div>
    )
  if (!data?.length) return <Empty small>{t('release.nothingSeen')}</Empty>
  return (
    <ul className={list.list}>
      {data.map((i) => (
        <li key={`${i.kind}-${i.id}`} className={list.item}>
          <div className={list.meta}>
            <div className={`${list.title} ${list.row}`}>
              <span>{i.title}</span>
              {i.corrected && <Tag color="blue">{t('release.corrected')}</Tag>}
            </div>
            <div className={`${list.description} ${list.lines}`}>
              <span>{formatDay(i.date)}</span>
              {(i.held || i.withdrawn) && <span className={styles.text}>{i.note}</span>}
              {(i.results ?? []).map((v) => (
                <span key={v.name} className={styles.text}>
                  {v.name}: {v.value}
                  {v.flag_text && ` — ${v.flag_text}`}
                  {v.range && ` (${t('release.usualRange', { range: v.range })})`}
                  {v.corrected && ` · ${t('release.corrected')}`}
                </span>
              ))}
            </div>
          </div>
        </li>
      ))}
    </ul>
  )
}
