import { EyeOutlined } from '@ant-design/icons'
import { Button, Card, Radio, Space, Spin, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useQuery } from '@tanstack/react-query'
import { meQuery } from '../../lib/auth/me'
import { startPreview } from '../../lib/auth/preview'
import { useRoles } from './api/listRoles'

/**
 * Role preview (spec /permission/page, the template's changeRoles): pick a role and the
 * menus, routes and controls regenerate as that role sees them, under a banner with the way
 * back. Nothing changes on the server.
 */
export default function RolePreviewPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const roles = useRoles()
  const me = useQuery(meQuery)
  const [chosen, setChosen] = useState<string>()
  const role = roles.data?.find((r) => r.name === chosen)
  const roleName = (name: string) => t(`roles.${name}`, { defaultValue: name })

  return (
    <Card title={t('preview.title')} style={{ maxWidth: 760 }}>
      <Typography.Paragraph>{t('preview.intro')}</Typography.Paragraph>
      {roles.isLoading ? (
        <Spin />
      ) : (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Radio.Group
            value={chosen}
            onChange={(e) => setChosen(e.target.value as string)}
            optionType="button"
            options={(roles.data ?? []).map((r) => ({ value: r.name, label: roleName(r.name) }))}
            aria-label={t('preview.choose')}
          />
          {role && (
            <>
              <Typography.Text type="secondary">{t('preview.holds', { count: role.permissions.length })}</Typography.Text>
              <Space wrap size={4} data-testid="preview-permissions">
                {role.permissions.map((p) => (
                  <Tag key={p}>{t(`permissions.${p}`, { defaultValue: p })}</Tag>
                ))}
              </Space>
              <Button
                type="primary"
                icon={<EyeOutlined aria-hidden />}
                onClick={() => {
                  startPreview({ role: role.name, permissions: role.permissions, userId: me.data!.id })
                  navigate('/dashboard')
                }}
              >
                {t('preview.start', { role: roleName(role.name) })}
              </Button>
            </>
          )}
        </Space>
      )}
    </Card>
  )
}
