import { EditOutlined, UserOutlined } from '@ant-design/icons'
import { Avatar, Button, Card, Col, Empty, Flex, List, Result, Row, Space, Spin, Tag, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useProfile } from './api/getProfile'
import { useActivity } from './api/listActivity'
import { formatDayTime } from '../../lib/time'
import { auditActionLabel, auditRecordLabel } from '../../lib/audit'
import { CredentialTag } from '../../components/apiTokens/CredentialTag'

/** My Profile (spec /user-profile/user-profile): who I am, and what I did lately. */
export default function MyProfilePage() {
  const { t } = useTranslation()
  const { data: p, isError, refetch } = useProfile()
  const { data: activity, isLoading } = useActivity()
  if (isError) return <Result status="warning" title={t('profile.loadFailed')} extra={<Button onClick={() => void refetch()}>{t('profile.retry')}</Button>} />
  if (!p) return <Spin />
  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} md={9}>
        <Card>
          <Flex vertical align="center" gap={8}>
            <Avatar size={96} src={p.pic || undefined} icon={<UserOutlined aria-hidden />} alt={t('profile.avatar')} />
            <Typography.Title level={4} style={{ margin: 0 }}>
              {p.name}
            </Typography.Title>
            <Typography.Text type="secondary">@{p.username}</Typography.Text>
            <Space wrap size={4}>
              {p.roles.map((r) => (
                <Tag key={r} color="blue">
                  {t(`roles.${r}`, { defaultValue: r })}
                </Tag>
              ))}
            </Space>
            {!!p.specialisations.length && <Typography.Text>{p.specialisations.join(', ')}</Typography.Text>}
            <Link to="/profile/edit">
              <Button icon={<EditOutlined aria-hidden />}>{t('profile.edit')}</Button>
            </Link>
          </Flex>
          <Typography.Title level={5} style={{ marginTop: 16 }}>
            {t('profile.fields.introduction')}
          </Typography.Title>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }}>{p.introduction || t('profile.noIntroduction')}</Typography.Paragraph>
        </Card>
      </Col>
      <Col xs={24} md={15}>
        <Card title={t('profile.activity')}>
          {isLoading ? (
            <Spin />
          ) : !activity?.length ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
          ) : (
            <List
              size="small"
              dataSource={activity}
              renderItem={(a) => (
                <List.Item data-testid="activity">
                  <Flex justify="space-between" wrap gap={8} style={{ width: '100%' }}>
                    <span>
                      {auditActionLabel(t, a.action)}
                      {a.entity_type && <Typography.Text type="secondary"> · {auditRecordLabel(t, a.entity_type, a.entity_id)}</Typography.Text>}
                      {a.by && <Typography.Text type="secondary"> {t('profile.activityBy', { name: a.by })}</Typography.Text>}
                      <CredentialTag credential={a.credential} />
                      {a.outcome !== 'success' && (
                        <Tag color="red" style={{ marginLeft: 8 }}>
                          {t(`activity.outcome.${a.outcome}`, { defaultValue: a.outcome })}
                        </Tag>
                      )}
                    </span>
                    <Typography.Text type="secondary">{formatDayTime(a.at)}</Typography.Text>
                  </Flex>
                </List.Item>
              )}
            />
          )}
        </Card>
      </Col>
    </Row>
  )
}
