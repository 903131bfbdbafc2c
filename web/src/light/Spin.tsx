// A light loading mark: a small spinning ring, named "Loading…" for screen readers, for a part
// of a screen that is still being fetched.
import { useTranslation } from 'react-i18next'
import styles from './Spin.module.css'

export function Spin() {
  const { t } = useTranslation()
  return <span className={styles.spin} role="status" aria-label={t('app.loading')} />
}
