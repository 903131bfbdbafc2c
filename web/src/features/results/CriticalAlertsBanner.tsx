// Critical results waiting for acknowledgement (CriticalAlerts.tsx watches for them): the
// banner listing them and the dialog that records how each was acted on. A new alert opens its
// dialog at once; one already seen waits in the banner. Loaded with the first alert. Each
// alert's waiting time ticks (useNow), without asking the server again. Alerts withdrawn (the
// value no longer stands) have a banner of their own: why, whether and by whom the alert had
// been acknowledged and what was done then, and the follow-up to record (FollowupDialog). An
// alert withdrawn while its acknowledgement is being written says so.
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { fullName } from '../../lib/patient'
import { formatDayTime } from '../../lib/time'
import { Alert } from '../../light/Alert'
import { Button } from '../../light/Button'
import { useToast } from '../../light/Toast'
import { AcknowledgeDialog } from './AcknowledgeDialog'
import { alertState } from './alertState'
import { useAcknowledge } from './api/acknowledgeAlert'
import { splitAlerts } from './api/listAlerts'
import type { CriticalAlert } from './api/types'
import { FollowupDialog } from './FollowupDialog'
import { isCritical, minutesSince, resultText, withdrawnWhy } from './format'
import { FlagTag } from './ResultParts'
import { useNow } from './useNow'
import own from './CriticalAlerts.module.css'
import styles from './results.module.css'

/** The critical results withdrawn, for those the alerts had reached and whoever acknowledged them. */
export function WithdrawnBanner({ alerts }: { alerts: CriticalAlert[] }) {
  const { t, i18n } = useTranslation()
  const ack = useAcknowledge()
  const [following, setFollowing] = useState<number | null>(null)
  return (
    <>
      <Alert
        type="warning"
        role="alert"
        data-testid="withdrawn-banner"
        title={t('results.withdrawnBannerTitle')}
        description={
          <div className={own.stackWide}>
            {alerts.map((a) => (
              <div key={a.id} data-testid={`withdrawn-${a.id}`}>
                {fullName(a.patient)} —{' '}
                <Link to={`/results/orders/${a.order_id}`}>
                  {t('results.withdrawnBanner', {
                    result: `${a.result.label}: ${resultText(t, a.result, i18n.language)}`,
                    reason: withdrawnWhy(t, a),
                  })}
                </Link>
                {a.withdrawn_at && (
                  <span className={styles.secondary}>
                    {' '}
                    · {formatDayTime(a.withdrawn_at)} · {a.withdrawn_by_name}
                  </span>
                )}
                <div>
                  <StandingValue alert={a} />
                </div>
                <div>
                  {a.acknowledged_at ? (
                    <strong className={styles.strong} data-testid="withdrawn-acknowledged">
                      {t('results.withdrawnAcknowledged', { name: a.acknowledged_by_name, time: formatDayTime(a.acknowledged_at), action: a.action })}
                    </strong>
                  ) : (
                    <span className={styles.secondary}>{t('results.withdrawnNotAcknowledged')}</span>
                  )}
                </div>
                {!a.withdrawal_seen_at && (
                  <div className={own.followup}>
                    <Button size="small" onClick={() => setFollowing(a.id)} data-testid={`followup-${a.id}`}>
                      {t('results.followupOpen')}
                    </Button>
                  </div>
                )}
              </div>
            ))}
          </div>
        }
      />
      {following !== null && (
        <FollowupDialog onSubmit={(followup, note) => ack.mutateAsync({ id: following, followup, note })} onClose={() => setFollowing(null)} />
      )}
    </>
  )
}

/** The value of a withdrawn alert's analyte that now stands, and whether it is critical itself (its own alert). */
export function StandingValue({ alert: a }: { alert: CriticalAlert }) {
  const { t, i18n } = useTranslation()
  if (!a.standing) return <span className={styles.secondary}>{t('results.withdrawnNoneStanding')}</span>
  const result = `${a.standing.label}: ${resultText(t, a.standing, i18n.language)}`
  return isCritical(a.standing.flag) ? (
    <strong className={`${styles.danger} ${styles.strong}`} data-testid="withdrawn-standing">
      {t('results.withdrawnStandingCritical', { result })} <FlagTag flag={a.standing.flag} />
    </strong>
  ) : (
    <strong className={styles.strong} data-testid="withdrawn-standing">
      {t('results.withdrawnStanding', { result })} <FlagTag flag={a.standing.flag} />
    </strong>
  )
}

/**
 * Critical values recorded against the wrong patient whose owner nobody has found yet (C2 of the
 * laboratory clinician's review): they escalate as any alert until resolved on the misfiled
 * list, where this banner leads; nothing here acknowledges them.
 */
export function MisfiledBanner({ alerts }: { alerts: CriticalAlert[] }) {
  const { t, i18n } = useTranslation()
  return (
    <Alert
      type="error"
      role="alert"
      data-testid="misfiled-banner"
      title={t('results.misfiledAlertTitle')}
      description={
        <div className={own.stack}>
          {alerts.map((a) => (
            <span key={a.id} data-testid={`misfiled-alert-${a.id}`}>
              {t('results.misfiledAlertItem', {
                result: `${a.result.label}: ${resultText(t, a.result, i18n.language)}`,
                name: fullName(a.patient),
                time: formatDayTime(a.raised_at),
              })}
              {alertState(t, a)}
            </span>
          ))}
          <span className={styles.secondary}>{t('results.misfiledAlertHint')}</span>
        </div>
      }
      action={
        <Link to="/results/overdue" data-testid="misfiled-banner-open">
          {t('results.misfiledAlertAction')}
        </Link>
      }
    />
  )
}

export default function CriticalAlertsBanner({ alerts: all }: { alerts: CriticalAlert[] }) {
  const { open: list, withdrawn, misfiled } = splitAlerts(all)
  return (
    <>
      {misfiled.length > 0 && <MisfiledBanner alerts={misfiled} />}
      {withdrawn.length > 0 && <WithdrawnBanner alerts={withdrawn} />}
      <OpenBanner alerts={list} withdrawn={withdrawn} />
    </>
  )
}

function OpenBanner({ alerts: list, withdrawn }: { alerts: CriticalAlert[]; withdrawn: CriticalAlert[] }) {
  const { t, i18n } = useTranslation()
  const message = useToast()
  const [open, setOpen] = useState<number | null>(null)
  const now = useNow()
  const seen = useRef(new Set<number>())
  // A new alert opens its dialog at once; one already seen waits in the banner.
  useEffect(() => {
    const fresh = list.find((a) => !seen.current.has(a.id))
    list.forEach((a) => seen.current.add(a.id))
    if (fresh && !list.some((a) => a.id === open)) setOpen(fresh.id)
  }, [list, open])
  // The alert being acknowledged was withdrawn meanwhile: its dialog closes (it is no longer
  // among the open ones), saying why and where to record what was done.
  const warned = useRef<number | null>(null)
  useEffect(() => {
    if (open !== null && warned.current !== open && withdrawn.some((a) => a.id === open)) {
      warned.current = open
      message.warning(t('results.withdrawnWhileOpen'))
    }
  }, [withdrawn, open, message, t])
  const current = list.find((a) => a.id === open)
  return (
    <>
      {list.length > 0 && (
        <Alert
          type="error"
          role="alert"
          data-testid="critical-banner"
          title={t('results.criticalBanner', { count: list.length })}
          description={
            <div className={own.stack}>
              {list.map((a) => (
                <span key={a.id}>
                  {fullName(a.patient)} — {a.result.label}: {resultText(t, a.result, i18n.language)} <FlagTag flag={a.result.flag} /> ·{' '}
                  {/* The minutes tick each half minute: not announced anew each time (the alert is, as it comes). */}
                  <span data-testid="critical-waiting" aria-live="off">{t('results.waiting', { count: minutesSince(a.raised_at, now) })}</span>
                  {alertState(t, a)}
                </span>
              ))}
            </div>
          }
          action={
            <Button variant="danger" onClick={() => setOpen(list[0].id)} data-testid="critical-open">
              {t('results.acknowledge')}
            </Button>
          }
        />
      )}
      {current && <AcknowledgeDialog key={current.id} alert={current} onClose={() => setOpen(null)} />}
    </>
  )
}
