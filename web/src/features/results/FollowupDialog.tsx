// What was done about a withdrawn critical value: one of the follow-ups (the patient told, a
// treatment stopped, whoever was told of it told, a repeat ordered, or nothing as nothing was
// acted on) and a note. Asked when a withdrawal is seen (the banner) and when the ordering
// doctor reviews the order that held it (the review queue): a withdrawal never closes unsaid.
// Sent by its button only; a click beside it does not close it.
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../lib/api'
import { Field } from '../../light/Field'
import { useForm } from '../../light/form'
import { FormDialog } from '../../light/FormDialog'
import { TextArea } from '../../light/Input'
import { RadioGroup } from '../../light/RadioGroup'
import { useToast } from '../../light/Toast'
import { FOLLOWUPS } from './api/types'
import own from './CriticalAlerts.module.css'
import styles from './results.module.css'

interface FollowupValues {
  followup: string
  note: string
}

export function FollowupDialog({ onSubmit, onClose }: { onSubmit: (followup: string, note: string) => Promise<unknown>; onClose: () => void }) {
  const { t } = useTranslation()
  const message = useToast()
  const form = useForm<FollowupValues>({ followup: '', note: '' }, { followup: (v) => (v ? undefined : t('results.followupRequired')) })
  const v = form.values
  // Held while it is sent: a second click sends nothing (it answered "already seen" before).
  const [busy, setBusy] = useState(false)
  const submit = async () => {
    if (busy) return
    setBusy(true)
    try {
      await onSubmit(v.followup, v.note.trim())
      message.success(t('results.followupSaved'))
      onClose()
    } catch (e) {
      if (e instanceof ApiError && Object.keys(e.fields).length > 0) {
        const rest = form.fail(Object.fromEntries(Object.entries(e.fields).map(([name, errors]) => [name === 'comment' ? 'note' : name, errors.join(' ')])))
        if (rest.length) message.error(rest.join(' '))
        return
      }
      message.error((e as Error).message || t('errors.network'))
    } finally {
      setBusy(false)
    }
  }
  return (
    <FormDialog
      title={t('results.followupTitle')}
      okText={t('results.followupOpen')}
      cancelText={t('results.cancel')}
      busy={busy}
      form={form}
      onSubmit={submit}
      onClose={onClose}
      enterSubmits={false}
      maskClosable={false}
      okTestId="followup-save"
    >
      {/* Focus lands here as it opens (as on the library's dialog itself): what happened is read before any field. */}
      <p tabIndex={-1} data-autofocus className={`${styles.danger} ${own.below} ${own.details}`}>{t('results.withdrawnBannerTitle')}</p>
      <div className={own.vertical}>
        <RadioGroup
          legend={t('results.followupLabel')}
          required
          value={v.followup}
          error={form.errors.followup}
          onChange={(x) => form.set('followup', x)}
          options={FOLLOWUPS.map((f) => ({ value: f, label: t(`results.followups.${f}`) }))}
        />
      </div>
      <Field label={t('results.followupNote')} error={form.errors.note}>
        {(c) => <TextArea {...c} maxLength={500} rows={1} className={own.grow} value={v.note} onChange={(e) => form.set('note', e.target.value)} />}
      </Field>
    </FormDialog>
  )
}
