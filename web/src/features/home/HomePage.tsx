import { LogoutOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Button, Card, Space, Tag, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate } from 'react-router'
import { LanguageSelect } from '../../components/LanguageSelect'
import { usePageTitle } from '../../components/usePageTitle'
import { meQuery } from '../../lib/auth/me'
import { useLogout } from '../../lib/auth/logout'

export default function HomePage() {
  const { t } = useTranslation()
  const { data: me } = useQuery(meQuery)
  const logout = useLogout()
  const navigate = useNavigate()
  const location = useLocation()
  usePageTitle(t('route.dashboard'))

  const onLogout = () =>
    logout.mutate(undefined, {
      onSettled: () => navigate(`/login?redirect=${encodeURIComponent(location.pathname + location.search)}`, { replace: true }),
    })

  return (
    <main style={{ maxWidth: 720, margin: '48px auto', padding: '0 16px' }}>
      <Card
        title={t('app.name')}
        extra={
          <Space wrap>
            <LanguageSelect />
            <Button icon={<LogoutOutlined />} onClick={onLogout} loading={logout.isPending}>
              {t('navbar.logOut')}
            </Button>
          </Space>
        }
      >
        <Typography.Title level={2} style={{ marginTop: 0 }}>
          {t('home.welcome', { name: me?.name ?? '' })}
        </Typography.Title>
        <Space wrap>
          <Typography.Text type="secondary">{t('home.roles')}</Typography.Text>
          {me?.roles.map((role) => (
            <Tag key={role} color="blue">
              {t(`roles.${role}`, { defaultValue: role })}
            </Tag>
          ))}
        </Space>
      </Card>
    </main>
  )
}
