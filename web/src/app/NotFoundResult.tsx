import { Button, Result } from 'antd'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'

/** "Not found" (404), or with forbidden "you do not have access" (403) and who to ask. */
export function NotFoundResult({ forbidden = false }: { forbidden?: boolean }) {
  const { t } = useTranslation()
  const navigate = useNavigate()
  return (
    <Result
      status={forbidden ? '403' : '404'}
      title={forbidden ? t('notFound.forbiddenTitle') : '404'}
      subTitle={forbidden ? t('notFound.forbiddenText') : t('notFound.text')}
      extra={
        <Button type="primary" onClick={() => navigate('/')}>
          {t('notFound.back')}
        </Button>
      }
    />
  )
}
