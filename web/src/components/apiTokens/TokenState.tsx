import { Space, Tag, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import type { Schema } from '../../lib/schema'
import { formatDayTime } from '../../lib/time'

type ApiToken = Schema<'APIToken'>

/** The state a token is in, as its tag says. */
export function stateOf(k: ApiToken): 'live' | 'expiring' | 'revoked' | 'expired' {
  if (k.revoked_at) return 'revoked'
  if (k.expired) return 'expired'
  return k.expiring_soon ? 'expiring' : 'live'
}

const COLOR = { live: 'green', expiring: 'gold', revoked: undefined, expired: undefined } as const

/** A token's state; an ended one says why (revoked by hand, or which remedy of its account) and when. */
export function TokenState({ token }: { token: ApiToken }) {
  const { t } = useTranslation()
  const state = stateOf(token)
  return (
    <Space orientation="vertical" size={0}>
      <Tag color={COLOR[state]}>{t(`apiAccess.states.${state}`)}</Tag>
      {token.revoked_at && (
        <Typography.Text type="secondary" data-testid="ended">
          {t(`apiAccess.reasons.${token.revoked_reason || 'revoked'}`)} · {formatDayTime(token.revoked_at)}
        </Typography.Text>
      )}
    </Space>
  )
}
