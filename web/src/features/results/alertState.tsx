// Where a critical alert stands, after its line in the banners and the dialog: escalated (to
// which level), and the last attempt that did not reach the patient.
import type { TFunction } from 'i18next'
import { formatDayTime } from '../../lib/time'
import type { CriticalAlert } from './api/types'
import styles from './results.module.css'

/** Where an alert stands: escalated (to which level), and the last attempt that did not reach the patient. */
export function alertState(t: TFunction, a: CriticalAlert) {
  return (
    <>
      {a.escalated_lead_at ? (
        <span className={styles.danger}> · {t('results.escalatedLeadTag')}</span>
      ) : (
        a.escalated_at && <span className={styles.danger}> · {t('results.escalatedTag')}</span>
      )}
      {a.not_reached_at && <span className={styles.danger}> · {t('results.notReachedAt', { time: formatDayTime(a.not_reached_at), name: a.not_reached_by_name })}</span>}
    </>
  )
}

