// What a view shows when it cannot be drawn — above all when its code cannot be fetched: EMR was
// updated while the page was open (the old files are gone), or the connection dropped. The other
// tabs stay as they were; reloading fetches the current version, and since a reload loses what is
// not yet saved in the other tabs, the user chooses when.
import { Button, Result } from 'antd'
import { useTranslation } from 'react-i18next'

export function ViewFailed() {
  const { t } = useTranslation()
  return (
    <Result
      status="warning"
      title={t('app.viewFailed')}
      subTitle={t('app.viewFailedHint')}
      extra={
        <Button type="primary" onClick={() => window.location.reload()}>
          {t('app.reload')}
        </Button>
      }
    />
  )
}
