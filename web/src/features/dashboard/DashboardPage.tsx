import { useQuery } from '@tanstack/react-query'
import { Calendar, Card, Col, Row, Space, Tag, Typography } from 'antd'
import dayjs from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { meQuery } from '../../lib/auth/me'

/** The landing page: who is logged in, their roles, and the clinic's calendar. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation()
  const { data: me } = useQuery(meQuery)
  const [now] = useState(() => new Date())
  const today = new Intl.DateTimeFormat(i18n.language, { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' }).format(now)

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} lg={12}>
        <Card>
          <Typography.Title level={2} style={{ marginTop: 0 }}>
            {t('home.welcome', { name: me?.name ?? '' })}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{today}</Typography.Paragraph>
          <Space wrap>
            <Typography.Text type="secondary">{t('home.roles')}</Typography.Text>
            {me?.roles.map((role) => (
              <Tag key={role} color="blue">
                {t(`roles.${role}`, { defaultValue: role })}
              </Tag>
            ))}
          </Space>
        </Card>
      </Col>
      <Col xs={24} lg={12}>
        <Card title={t('home.calendar')}>
          <Calendar fullscreen={false} defaultValue={dayjs()} />
        </Card>
      </Col>
    </Row>
  )
}
