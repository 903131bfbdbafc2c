import { Space, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDayTime } from '../../lib/time'

/** A token's or a client's scopes, one code each; none is the account's whole access. */
export function ScopeList({ scopes }: { scopes: string }) {
  const { t } = useTranslation()
  if (!scopes) return <Typography.Text type="secondary">{t('apiAccess.wholeAccess')}</Typography.Text>
  return (
    <Space wrap size={4}>
      {scopes.split(' ').map((s) => (
        <Typography.Text key={s} code>
          {s}
        </Typography.Text>
      ))}
    </Space>
  )
}

/** When and from where a token or a client was last used, or never. */
export function LastUse({ at, address }: { at?: string | null; address: string }) {
  const { t } = useTranslation()
  if (!at) return <Typography.Text type="secondary">{t('apiAccess.never')}</Typography.Text>
  return (
    <Space direction="vertical" size={0}>
      <span>{formatDayTime(at)}</span>
      <Typography.Text type="secondary">{address}</Typography.Text>
    </Space>
  )
}
