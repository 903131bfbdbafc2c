import { Card, Skeleton, Space } from 'antd'
import { useTranslation } from 'react-i18next'

/**
 * What a record's screen shows while the record loads: the shapes of the patient's banner (when
 * the screen has one) and of a card, so the screen has its frame at once and nothing jumps far
 * when the record arrives.
 */
export function PageSkeleton({ banner = false }: { banner?: boolean }) {
  const { t } = useTranslation()
  return (
    <div role="status" aria-busy="true" aria-label={t('app.loading')} data-testid="page-skeleton">
      <Space orientation="vertical" size={16} style={{ width: '100%' }}>
        {banner && (
          <Card size="small">
            <Skeleton active avatar={{ shape: 'square', size: 64 }} title={{ width: '40%' }} paragraph={{ rows: 2, width: ['70%', '55%'] }} />
          </Card>
        )}
        <Card>
          <Skeleton active title={{ width: '30%' }} paragraph={{ rows: 6 }} />
        </Card>
      </Space>
    </div>
  )
}
