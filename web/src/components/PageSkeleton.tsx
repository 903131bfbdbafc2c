import { useTranslation } from 'react-i18next'
import { Card } from '../light/Card'
import { Skeleton } from '../light/Skeleton'
import styles from './PageSkeleton.module.css'

/**
 * What a record's screen shows while the record loads: the shapes of the patient's banner (when
 * the screen has one) and of a card, so the screen has its frame at once and nothing jumps far
 * when the record arrives.
 */
export function PageSkeleton({ banner = false }: { banner?: boolean }) {
  const { t } = useTranslation()
  return (
    <div role="status" aria-busy="true" aria-label={t('app.loading')} data-testid="page-skeleton" className={styles.page}>
      {banner && (
        <Card size="small">
          <div className={styles.banner}>
            <Skeleton block={64} className={styles.avatar} />
            <Skeleton lines={['40%', '70%', '55%']} />
          </div>
        </Card>
      )}
      <Card>
        <Skeleton lines={['30%', '100%', '100%', '100%', '100%', '100%', '61%']} />
      </Card>
    </div>
  )
}
