// What a view shows when it cannot be drawn — above all when its code cannot be fetched: EMR was
// updated while the page was open (the old files are gone), or the connection dropped. The other
// tabs stay as they were; reloading fetches the current version, and since a reload loses what is
// not yet saved in the other tabs, the user chooses when. Light: it must show when the library's
// own code is what could not be fetched.
import { useTranslation } from 'react-i18next'
import { Button } from '../../light/Button'
import styles from './shell.module.css'

export function ViewFailed() {
  const { t } = useTranslation()
  return (
    <div className={styles.viewFailed}>
      <span className={styles.viewFailedMark} aria-hidden>
        !
      </span>
      <h2>{t('app.viewFailed')}</h2>
      <p>{t('app.viewFailedHint')}</p>
      <Button variant="primary" onClick={() => window.location.reload()}>
        {t('app.reload')}
      </Button>
    </div>
  )
}
