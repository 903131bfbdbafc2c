// "What can I do" (spec /permission/directive): the permissions the user holds — or the
// previewed role would — the screens and actions each opens, and controls shown or hidden
// by the permission directive (<Can>). The server checks every request regardless.
import { CheckCircleFilled, MinusCircleOutlined } from '@ant-design/icons'
import { useQuery } from '@tanstack/react-query'
import { Button, Card, List, Space, Tag, Typography } from 'antd'
import { useMemo } from 'react'
import { useTranslation } from 'react-i18next'
import { Link, useNavigate } from 'react-router'
import { Can } from '../lib/auth/Can'
import { meQuery } from '../lib/auth/me'
import { PERMISSIONS } from '../lib/auth/permissions'
import { effectiveAccess, usePreview } from '../lib/auth/preview'
import { screensOf } from './routing/screens'
import { asyncRoutes, constantRoutes } from './routing/table'
import { ListMeta } from '../components/ListMeta'

/** Controls that appear only with a permission, as any page's buttons do. */
const EXAMPLES = [
  { permission: 'manage patient', label: 'directive.example.registerPatient', to: '/masterfile/patient_form/new' },
  { permission: 'manage appointment', label: 'directive.example.book', to: '/appointments/appointments' },
  { permission: 'write prescription', label: 'directive.example.prescribe', to: '/forms/blankPrescription' },
  { permission: 'manage user', label: 'directive.example.accounts', to: '/administrator/users' },
  { permission: 'view audit log', label: 'directive.example.audit', to: '/administrator/audit' },
]

export default function WhatICanDoPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const { data: me } = useQuery(meQuery)
  const preview = usePreview()
  const { byPermission, byRole } = useMemo(() => screensOf([...constantRoutes, ...asyncRoutes]), [])
  if (!me) return null
  const { roles, permissions } = effectiveAccess(me, preview)
  const isAdmin = roles.includes('admin')
  const holds = (p: string) => isAdmin || permissions.includes(p)
  const roleName = (r: string) => t(`roles.${r}`, { defaultValue: r })
  const roleScreens = roles.flatMap((r) => byRole[r] ?? [])

  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%', maxWidth: 960 }}>
      <Card title={t('directive.title')}>
        <Typography.Paragraph data-testid="directive-who">
          {preview ? t('directive.previewing', { role: roleName(preview.role) }) : t('directive.you', { name: me.name })}{' '}
          {roles.map((r) => (
            <Tag key={r} color={r === 'admin' ? 'red' : 'blue'}>
              {roleName(r)}
            </Tag>
          ))}
        </Typography.Paragraph>
        {isAdmin && <Typography.Paragraph type="secondary">{t('directive.adminHoldsAll')}</Typography.Paragraph>}
        <Typography.Paragraph type="secondary">{t('directive.serverDecides')}</Typography.Paragraph>
      </Card>

      <Card title={t('directive.permissions')}>
        <List
          data-testid="directive-permissions"
          dataSource={[...PERMISSIONS]}
          renderItem={(p) => (
            <List.Item data-held={holds(p)}>
              <ListMeta
                avatar={holds(p) ? <CheckCircleFilled style={{ color: '#52c41a' }} aria-label={t('directive.held')} /> : <MinusCircleOutlined aria-label={t('directive.notHeld')} />}
                title={<Typography.Text type={holds(p) ? undefined : 'secondary'}>{t(`permissions.${p}`)}</Typography.Text>}
                description={
                  <>
                    <div>{t(`directive.actions.${p}`)}</div>
                    {(byPermission[p] ?? []).length > 0 && (
                      <Space wrap size={4} style={{ marginTop: 4 }}>
                        {(byPermission[p] ?? []).map((s) =>
                          holds(p) && !s.path.includes(':') ? (
                            <Link key={s.path} to={s.path}>
                              <Tag color="processing">{t(`route.${s.title}`)}</Tag>
                            </Link>
                          ) : (
                            <Tag key={s.path}>{t(`route.${s.title}`)}</Tag>
                          ),
                        )}
                      </Space>
                    )}
                  </>
                }
              />
            </List.Item>
          )}
        />
        {roleScreens.length > 0 && (
          <Typography.Paragraph style={{ marginTop: 12 }}>
            {t('directive.byRole')}{' '}
            {roleScreens.map((s) => (
              <Tag key={s.path}>{t(`route.${s.title}`)}</Tag>
            ))}
          </Typography.Paragraph>
        )}
      </Card>

      <Card title={t('directive.controls')}>
        <Typography.Paragraph type="secondary">{t('directive.controlsHint')}</Typography.Paragraph>
        <List
          dataSource={EXAMPLES}
          renderItem={(ex) => (
            <List.Item>
              <Space wrap>
                <Tag>{t(`permissions.${ex.permission}`)}</Tag>
                <Can
                  permission={ex.permission}
                  fallback={
                    <Typography.Text type="secondary" data-testid={`hidden-${ex.permission}`}>
                      {t('directive.hidden')}
                    </Typography.Text>
                  }
                >
                  <Button size="small" type="primary" ghost onClick={() => navigate(ex.to)} data-testid={`shown-${ex.permission}`}>
                    {t(ex.label)}
                  </Button>
                </Can>
              </Space>
            </List.Item>
          )}
        />
      </Card>
    </Space>
  )
}
