import { Space, Tag } from 'antd'
import { useTranslation } from 'react-i18next'

/** A user's roles as tags, in the user's language. */
export function RoleTags({ roles }: { roles: string[] }) {
  const { t } = useTranslation()
  return (
    <Space wrap size={4}>
      {roles.map((r) => (
        <Tag key={r} color={r === 'admin' ? 'red' : 'blue'}>
          {t(`roles.${r}`, { defaultValue: r })}
        </Tag>
      ))}
    </Space>
  )
}
