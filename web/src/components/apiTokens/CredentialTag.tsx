import { ApiOutlined, AppstoreOutlined, KeyOutlined } from '@ant-design/icons'
import { Tag, Tooltip } from 'antd'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'

type CredentialKind = 'token' | 'client' | 'app'

/**
 * A credential as the audit log stores it: 'token:17 "Lab script"', 'client:emr-abc "Lab
 * interface"' or a SMART app's grant, 'app:emr-app-abc "Growth chart" grant 7'.
 */
export function parseCredential(credential: string): { kind: CredentialKind; id: string; name: string; grant?: number } | null {
  const m = /^(token|client|app):(\S+) "(.*)"(?: grant (\d+))?$/.exec(credential)
  if (!m || (m[1] === 'app') !== (m[4] !== undefined)) return null
  let name = m[3]
  try {
    name = JSON.parse(`"${m[3]}"`) as string // the server quotes the name as Go does
  } catch {
    // keep it as written
  }
  return { kind: m[1] as CredentialKind, id: m[2], name, ...(m[4] ? { grant: Number(m[4]) } : {}) }
}

const labels: Record<CredentialKind, string> = { token: 'credential.token', client: 'credential.client', app: 'credential.app' }
const icons: Record<CredentialKind, ReactNode> = {
  token: <KeyOutlined aria-hidden />,
  client: <ApiOutlined aria-hidden />,
  app: <AppstoreOutlined aria-hidden />,
}

/** Marks an action made with an API token, a backend client or a SMART app (nothing for the browser). */
export function CredentialTag({ credential }: { credential?: string | null }) {
  const { t } = useTranslation()
  if (!credential) return null
  const c = parseCredential(credential)
  return (
    <Tooltip title={credential}>
      <Tag color="purple" icon={icons[c?.kind ?? 'token']} data-testid="credential">
        {c ? t(labels[c.kind], { name: c.name }) : credential}
      </Tag>
    </Tooltip>
  )
}
