import { useTranslation } from 'react-i18next'
import { formatDayTime } from '../../../lib/time'
import { Card } from '../../../light/Card'
import { Descriptions } from '../../../light/Descriptions'
import { RightIcon } from '../../../light/icons'
import type { Amendment } from '../api/types'
import styles from './parts.module.css'

/** The amendments of a signed visit, each with what it replaced (opened one by one, as many as wanted). */
export function AmendmentsCard({ amendments }: { amendments: Amendment[] }) {
  const { t } = useTranslation()
  return (
    <Card look="panel" level={3} title={t('visit.sections.amendments')}>
      <div className={styles.collapse}>
        {amendments.map((m) => (
          <details key={m.id} className={styles.panel}>
            <summary className={styles.summary}>
              <span className={styles.arrow} aria-hidden>
                <RightIcon />
              </span>
              {`${formatDayTime(m.amended_at)} · ${m.amended_by}: ${m.reason}`}
            </summary>
            <div className={styles.panelBody}>
              <div className={styles.beforeTitle}>{t('visit.before')}</div>
              <Descriptions
                column={1}
                items={[
                  { key: 'cc', label: t('visit.fields.chief_complaint'), children: m.previous.chief_complaint || '—' },
                  { key: 'dx', label: t('visit.sections.diagnoses'), children: m.previous.diagnoses.map((d) => (d.code ? `${d.code} ${d.label ?? ''}` : d.text) + (d.primary ? ` (${t('history.primary')})` : '')).join('; ') || '—' },
                  { key: 'plan', label: t('visit.fields.plan'), children: m.previous.plan || '—' },
                ]}
              />
            </div>
          </details>
        ))}
      </div>
    </Card>
  )
}
