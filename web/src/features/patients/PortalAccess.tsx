import { PrinterOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Descriptions, Empty, Flex, Input, List, Modal, Popconfirm, Radio, Space, Tag, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PatientSelect } from '../../components/PatientSelect'
import { formatDay, formatDayTime } from '../../lib/time'
import { usePortalStatus } from './api/portalAccess'
import { usePortalActions, type GuardianInput, type PortalInvitation } from './api/portalActions'
import { ListMeta } from '../../components/ListMeta'

/** Prints the access code on a page of its own, the code written as text (never as markup). */
function printCode(title: string, lines: string[]) {
  const w = window.open('', '_blank', 'width=480,height=360')
  if (!w) return
  w.document.title = title
  const h = w.document.createElement('h1')
  h.textContent = title
  w.document.body.appendChild(h)
  for (const line of lines) {
    const p = w.document.createElement('p')
    p.textContent = line
    w.document.body.appendChild(p)
  }
  w.print()
}

/** The chart's patient portal card: access on or off, a new access code (shown once), revoking, and guardians. */
export function PortalAccess({ patientId, archived, name }: { patientId: number; archived: boolean; name: string }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const status = usePortalStatus(patientId, true)
  const actions = usePortalActions(patientId)
  const [shown, setShown] = useState<PortalInvitation | null>(null)
  const [channel, setChannel] = useState<GuardianInput['channel']>('email')
  const [address, setAddress] = useState('')
  const [guardian, setGuardian] = useState<number | undefined>()
  const s = status.data
  const portalURL = `${window.location.origin}/portal`
  const link = () => {
    const g: GuardianInput = channel === 'patient' ? { channel, patient_id: guardian } : { channel, address }
    actions.link.mutate(g, {
      onSuccess: () => {
        setAddress('')
        setGuardian(undefined)
        void message.success(t('portalAccess.linked'))
      },
    })
  }
  return (
    <Card
      title={t('portalAccess.title')}
      loading={status.isLoading}
      extra={
        s && !archived && (
          <Space wrap size={4}>
            <Button size="small" type={s.enabled ? 'default' : 'primary'} loading={actions.invite.isPending} onClick={() => actions.invite.mutate(undefined, { onSuccess: setShown })}>
              {s.enabled ? t('portalAccess.newCode') : t('portalAccess.invite')}
            </Button>
            {s.enabled && (
              <Popconfirm title={t('portalAccess.revokeConfirm')} okText={t('portalAccess.revoke')} okButtonProps={{ danger: true }} cancelText={t('patients.cancel')}
                onConfirm={() => actions.revoke.mutateAsync().then(() => void message.success(t('portalAccess.revoked')))}>
                <Button size="small" danger>
                  {t('portalAccess.revoke')}
                </Button>
              </Popconfirm>
            )}
          </Space>
        )
      }
    >
      {s && (
        <Space orientation="vertical" size={12} style={{ width: '100%' }}>
          <Descriptions
            size="small"
            column={1}
            items={[
              { key: 'state', label: t('portalAccess.state'), children: s.enabled ? <Tag color="green">{t('portalAccess.on')}</Tag> : <Tag>{t('portalAccess.off')}</Tag> },
              ...(s.invited_at ? [{ key: 'since', label: t('portalAccess.since'), children: formatDay(s.invited_at) }] : []),
              { key: 'codes', label: t('portalAccess.liveCodes'), children: s.live_codes },
              { key: 'sessions', label: t('portalAccess.sessions'), children: s.sessions },
            ]}
          />
          {/* An h3 under the chart's h2 (a level-5 heading skipped two), drawn as the h5 was. */}
          <Typography.Title level={3} style={{ margin: 0, fontSize: 16, lineHeight: 1.5 }}>
            {t('portalAccess.guardians')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('portalAccess.guardiansHint')}</Typography.Text>
          <List
            size="small"
            dataSource={s.guardians}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('portalAccess.noGuardians')} /> }}
            renderItem={(g) => (
              <List.Item
                actions={[
                  <Popconfirm key="unlink" title={t('portalAccess.unlinkConfirm')} okText={t('portalAccess.unlink')} cancelText={t('patients.cancel')}
                    onConfirm={() => actions.unlink.mutateAsync(g.id).then(() => void message.success(t('portalAccess.unlinked')))}>
                    <Button size="small" type="link" danger aria-label={t('portalAccess.unlinkNamed', { name: g.patient_id ? `${g.name} (${g.mrn})` : g.address })}>
                      {t('portalAccess.unlink')}
                    </Button>
                  </Popconfirm>,
                ]}
              >
                <ListMeta
                  title={g.patient_id ? `${g.name} (${g.mrn})` : g.address}
                  description={`${t(`portalAccess.channel.${g.channel}`)} · ${formatDayTime(g.created_at)}`}
                />
              </List.Item>
            )}
          />
          {!archived && (
            <Flex gap={8} wrap align="center">
              <Radio.Group
                aria-label={t('portalAccess.guardianBy')}
                optionType="button"
                size="small"
                value={channel}
                onChange={(e) => setChannel(e.target.value as GuardianInput['channel'])}
                options={(['email', 'sms', 'patient'] as const).map((c) => ({ value: c, label: t(`portalAccess.channel.${c}`) }))}
              />
              {channel === 'patient' ? (
                <PatientSelect value={guardian} onChange={setGuardian} ariaLabel={t('portalAccess.guardianRecord')} style={{ minWidth: 220, flex: 1 }} />
              ) : (
                <Input
                  size="small"
                  style={{ minWidth: 200, flex: 1 }}
                  aria-label={channel === 'email' ? t('portalAccess.guardianEmail') : t('portalAccess.guardianPhone')}
                  placeholder={channel === 'email' ? 'name@example.com' : '+84 912 345 678'}
                  inputMode={channel === 'email' ? 'email' : 'tel'}
                  value={address}
                  onChange={(e) => setAddress(e.target.value)}
                  onPressEnter={link}
                />
              )}
              <Button size="small" onClick={link} loading={actions.link.isPending} disabled={channel === 'patient' ? !guardian : !address.trim()}>
                {t('portalAccess.link')}
              </Button>
            </Flex>
          )}
        </Space>
      )}
      <Modal
        open={shown !== null}
        title={t('portalAccess.codeTitle')}
        onCancel={() => setShown(null)}
        footer={[
          <Button key="print" icon={<PrinterOutlined aria-hidden />}
            onClick={() => shown && printCode(t('portalAccess.printTitle'), [name, t('portalAccess.printAddress', { url: portalURL }), `${t('portalAccess.code')}: ${shown.code}`, t('portalAccess.printHow'), t('portalAccess.printUntil', { date: formatDay(shown.expires_at) })])}>
            {t('portalAccess.print')}
          </Button>,
          <Button key="done" type="primary" onClick={() => setShown(null)}>
            {t('portalAccess.done')}
          </Button>,
        ]}
      >
        {shown && (
          <Space orientation="vertical" size={12} style={{ width: '100%' }}>
            <Typography.Text copyable={{ text: shown.code }} style={{ fontSize: 28, fontFamily: 'monospace', letterSpacing: 2 }} aria-label={`${t('portalAccess.code')}: ${shown.code.split('').join(' ')}`}>
              {shown.code}
            </Typography.Text>
            <Alert type="info" showIcon title={t('portalAccess.shownOnce')} description={t('portalAccess.codeHow', { url: portalURL, date: formatDay(shown.expires_at) })} />
          </Space>
        )}
      </Modal>
    </Card>
  )
}
