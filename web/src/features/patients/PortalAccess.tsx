import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { PatientSelect } from '../../components/PatientSelect'
import { formatDay, formatDayTime } from '../../lib/time'
import { Alert } from '../../light/Alert'
import { Button } from '../../light/Button'
import { Card } from '../../light/Card'
import { Confirm } from '../../light/Confirm'
import { Descriptions } from '../../light/Descriptions'
import { Dialog } from '../../light/Dialog'
import { Empty } from '../../light/Empty'
import { Input } from '../../light/Input'
import { RadioGroup } from '../../light/RadioGroup'
import { Skeleton } from '../../light/Skeleton'
import { Tag } from '../../light/Tag'
import { toast } from '../../light/Toast'
import { PrinterIcon } from '../../light/icons'
import list from '../../components/itemList.module.css'
import { usePortalStatus } from './api/portalAccess'
import { usePortalActions, type GuardianInput, type PortalInvitation } from './api/portalActions'
import { CopyButton } from './CopyButton'
import styles from './portal.module.css'

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
  const status = usePortalStatus(patientId, true)
  const actions = usePortalActions(patientId)
  const [shown, setShown] = useState<PortalInvitation | null>(null)
  const [channel, setChannel] = useState<GuardianInput['channel']>('email')
  const [address, setAddress] = useState('')
  const [guardian, setGuardian] = useState<number | undefined>()
  // The question open: turning access off, or unlinking a guardian (by id).
  const [asking, setAsking] = useState<'revoke' | number | null>(null)
  const s = status.data
  const portalURL = `${window.location.origin}/portal`
  const ready = channel === 'patient' ? Boolean(guardian) : Boolean(address.trim())
  const link = () => {
    if (!ready) return
    const g: GuardianInput = channel === 'patient' ? { channel, patient_id: guardian } : { channel, address }
    actions.link.mutate(g, {
      onSuccess: () => {
        setAddress('')
        setGuardian(undefined)
        toast.success(t('portalAccess.linked'))
      },
    })
  }
  const who = (g: NonNullable<typeof s>['guardians'][number]) => (g.patient_id ? `${g.name} (${g.mrn})` : g.address)
  return (
    <Card
      level={3}
      title={t('portalAccess.title')}
      data-testid="portal-access"
      extra={
        s &&
        !archived && (
          <div className={styles.tools}>
            <Button size="small" variant={s.enabled ? 'default' : 'primary'} loading={actions.invite.isPending} onClick={() => actions.invite.mutate(undefined, { onSuccess: setShown })}>
              {s.enabled ? t('portalAccess.newCode') : t('portalAccess.invite')}
            </Button>
            {s.enabled && (
              <Button size="small" variant="dangerOutline" onClick={() => setAsking('revoke')}>
                {t('portalAccess.revoke')}
              </Button>
            )}
          </div>
        )
      }
    >
      {status.isLoading && <Skeleton lines={['38%', '100%', '100%', '61%']} label={t('app.loading')} />}
      {s && (
        <div className={styles.body}>
          <Descriptions
            column={1}
            items={[
              { key: 'state', label: t('portalAccess.state'), children: s.enabled ? <Tag color="green">{t('portalAccess.on')}</Tag> : <Tag>{t('portalAccess.off')}</Tag> },
              ...(s.invited_at ? [{ key: 'since', label: t('portalAccess.since'), children: formatDay(s.invited_at) }] : []),
              { key: 'codes', label: t('portalAccess.liveCodes'), children: s.live_codes },
              { key: 'sessions', label: t('portalAccess.sessions'), children: s.sessions },
            ]}
          />
          {/* An h4 under the card's h3, drawn as the library's h5 was. */}
          <h4 className={styles.heading}>{t('portalAccess.guardians')}</h4>
          <span className={list.secondary}>{t('portalAccess.guardiansHint')}</span>
          {s.guardians.length === 0 ? (
            <Empty small>{t('portalAccess.noGuardians')}</Empty>
          ) : (
            <ul className={`${list.list} ${list.small}`}>
              {s.guardians.map((g) => (
                <li key={g.id} className={list.item}>
                  <div className={list.meta}>
                    <div className={list.title}>{who(g)}</div>
                    <div className={list.description}>{`${t(`portalAccess.channel.${g.channel}`)} · ${formatDayTime(g.created_at)}`}</div>
                  </div>
                  <div className={list.actions}>
                    <Button size="small" variant="dangerText" aria-label={t('portalAccess.unlinkNamed', { name: who(g) })} onClick={() => setAsking(g.id)}>
                      {t('portalAccess.unlink')}
                    </Button>
                  </div>
                </li>
              ))}
            </ul>
          )}
          {!archived && (
            <div className={styles.linkRow}>
              <RadioGroup
                legend={t('portalAccess.guardianBy')}
                inline
                look="button"
                size="small"
                value={channel}
                onChange={setChannel}
                options={(['email', 'sms', 'patient'] as const).map((c) => ({ value: c, label: t(`portalAccess.channel.${c}`) }))}
              />
              {channel === 'patient' ? (
                <PatientSelect value={guardian} onChange={setGuardian} ariaLabel={t('portalAccess.guardianRecord')} style={{ minWidth: 220, flex: 1, width: 'auto' }} />
              ) : (
                <Input
                  className={styles.address}
                  aria-label={channel === 'email' ? t('portalAccess.guardianEmail') : t('portalAccess.guardianPhone')}
                  placeholder={channel === 'email' ? 'name@example.com' : '+84 912 345 678'}
                  inputMode={channel === 'email' ? 'email' : 'tel'}
                  value={address}
                  onChange={(e) => setAddress(e.target.value)}
                  onKeyDown={(e) => e.key === 'Enter' && link()}
                />
              )}
              <Button size="small" onClick={link} loading={actions.link.isPending} disabled={!ready}>
                {t('portalAccess.link')}
              </Button>
            </div>
          )}
        </div>
      )}
      <Confirm
        open={asking !== null}
        title={asking === 'revoke' ? t('portalAccess.revokeConfirm') : t('portalAccess.unlinkConfirm')}
        okText={asking === 'revoke' ? t('portalAccess.revoke') : t('portalAccess.unlink')}
        danger={asking === 'revoke'}
        cancelText={t('patients.cancel')}
        closeLabel={t('app.icons.close')}
        onCancel={() => setAsking(null)}
        onOk={async () => {
          // A refusal (the API client says why) leaves the question open, as the library's did.
          try {
            if (asking === 'revoke') await actions.revoke.mutateAsync().then(() => toast.success(t('portalAccess.revoked')))
            else if (asking !== null) await actions.unlink.mutateAsync(asking).then(() => toast.success(t('portalAccess.unlinked')))
            setAsking(null)
          } catch {
            // Said already.
          }
        }}
      />
      <Dialog
        open={shown !== null}
        title={t('portalAccess.codeTitle')}
        closeLabel={t('app.icons.close')}
        onClose={() => setShown(null)}
        footer={
          <>
            <Button
              icon={<PrinterIcon />}
              onClick={() => shown && printCode(t('portalAccess.printTitle'), [name, t('portalAccess.printAddress', { url: portalURL }), `${t('portalAccess.code')}: ${shown.code}`, t('portalAccess.printHow'), t('portalAccess.printUntil', { date: formatDay(shown.expires_at) })])}
            >
              {t('portalAccess.print')}
            </Button>
            <Button variant="primary" onClick={() => setShown(null)}>
              {t('portalAccess.done')}
            </Button>
          </>
        }
      >
        {shown && (
          <div className={styles.body}>
            <div>
              {/* Said a character at a time, as the patient will type it. */}
              <span role="img" className={styles.code} aria-label={`${t('portalAccess.code')}: ${shown.code.split('').join(' ')}`}>
                {shown.code}
              </span>
              <CopyButton text={shown.code} />
            </div>
            <Alert type="info" title={t('portalAccess.shownOnce')} description={t('portalAccess.codeHow', { url: portalURL, date: formatDay(shown.expires_at) })} />
          </div>
        )}
      </Dialog>
    </Card>
  )
}
