import { useTranslation } from 'react-i18next'
import styles from './PageLoading.module.css'

/** Shown while the logged-in application loads: plain CSS, so the login page stays light. */
export function PageLoading() {
  const { t } = useTranslation()
  return (
    <div className={styles.wrap} role="status" aria-live="polite">
      <div className={styles.spinner} aria-hidden />
      <span className={styles.text}>{t('app.loading')}</span>
    </div>
  )
}
