import { ApiOutlined, KeyOutlined } from '@ant-design/icons'
import { Tag, Tooltip } from 'antd'
import { useTranslation } from 'react-i18next'

/** A credential as the audit log stores it: 'token:17 "Lab script"' or 'client:emr-abc "Lab interface"'. */
export function parseCredential(credential: string): { kind: 'token' | 'client'; id: string; name: string } | null {
  const m = /^(token|client):(\S+) "(.*)"$/.exec(credential)
  if (!m) return null
  let name = m[3]
  try {
    name = JSON.parse(`"${m[3]}"`) as string // the server quotes the name as Go does
  } catch {
    // keep it as written
  }
  return { kind: m[1] as 'token' | 'client', id: m[2], name }
}

/** Marks an action made with an API token or a backend client (nothing for the browser). */
export function CredentialTag({ credential }: { credential?: string | null }) {
  const { t } = useTranslation()
  if (!credential) return null
  const c = parseCredential(credential)
  const label = c ? t(c.kind === 'token' ? 'credential.token' : 'credential.client', { name: c.name }) : credential
  return (
    <Tooltip title={credential}>
      <Tag color="purple" icon={c?.kind === 'client' ? <ApiOutlined aria-hidden /> : <KeyOutlined aria-hidden />} data-testid="credential">
        {label}
      </Tag>
    </Tooltip>
  )
}
