import dayjs from 'dayjs'
import { useId, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { showFieldErrors } from '../../lib/formErrors'
import { Button } from '../../light/Button'
import { DateInput } from '../../light/DateInput'
import { Dialog } from '../../light/Dialog'
import { Field } from '../../light/Field'
import { useForm } from '../../light/form'
import { Select, TextArea } from '../../light/Input'
import { toast } from '../../light/Toast'
import fieldStyles from '../../light/Field.module.css'
import { holdCategories, holdItem, type Hold } from './api/holdItem'
import type { ReleaseStatus } from './api/release'
import styles from './release.module.css'

interface HoldForm {
  hold_kind: Hold['hold_kind'] | ''
  category: Hold['category'] | ''
  reason: string
  review_by: string
}

/** How long a hold lasts before the chart shows it as due for review, unless the doctor says. */
const REVIEW_DAYS = 30

const ISO = 'YYYY-MM-DD'

/** The hold dialog: discuss first (the patient reads only that their doctor will discuss it) or withhold (the patient sees nothing), the category of reason, the reason, and when to review it. */
export function HoldDialog({ item, onClose, onHeld }: { item: ReleaseStatus; onClose(): void; onHeld(kind: Hold['hold_kind']): unknown }) {
  const { t } = useTranslation()
  const [saving, setSaving] = useState(false)
  const d = item.decision?.decision === 'held' ? item.decision : null
  const form = useForm<HoldForm>(
    {
      hold_kind: (d?.hold_kind as Hold['hold_kind']) || '',
      category: (d?.category as Hold['category']) || '',
      reason: d?.reason ?? '',
      review_by: dayjs().add(REVIEW_DAYS, 'day').format(ISO),
    },
    {
      hold_kind: (v) => (v ? undefined : t('release.holdKindRequired')),
      category: (v) => (v ? undefined : t('release.categoryRequired')),
      reason: (v) => (v.trim() ? undefined : t('release.holdReasonRequired')),
      review_by: (v) => (v ? undefined : t('release.reviewByRequired')),
    },
  )
  const v = form.values
  // A review day from today to a year on, as the library's picker offered; another typed is not taken.
  const [first, last] = [dayjs().format(ISO), dayjs().add(1, 'year').format(ISO)]
  const kindName = useId()
  const kindError = useId()
  const submit = async () => {
    if (!form.check() || !v.hold_kind || !v.category) return
    setSaving(true)
    try {
      await holdItem(item.kind, item.id, item.version, { hold_kind: v.hold_kind, category: v.category, reason: v.reason.trim(), review_by: v.review_by })
      await onHeld(v.hold_kind)
    } catch (e) {
      showFieldErrors(e, form.fail as (errors: Record<string, string>) => string[], toast.error)
    } finally {
      setSaving(false)
    }
  }
  return (
    <Dialog
      open
      title={t('release.holdTitle', { title: item.title })}
      closeLabel={t('app.icons.close')}
      onClose={onClose}
      busy={saving}
      enterSubmits={false}
      onSubmit={() => void submit()}
      footer={
        <>
          <Button onClick={onClose} disabled={saving}>
            {t('release.close')}
          </Button>
          <Button type="submit" variant={v.hold_kind === 'withhold' ? 'danger' : 'primary'} loading={saving}>
            {v.hold_kind === 'withhold' ? t('release.withhold') : t('release.hold')}
          </Button>
        </>
      }
    >
      <div data-form={form.scope}>
        <fieldset className={`${fieldStyles.field} ${styles.kinds}`} aria-describedby={form.errors.hold_kind ? kindError : undefined}>
          <legend className={fieldStyles.label}>{t('release.holdKindLabel')}</legend>
          {(['discuss', 'withhold'] as const).map((k) => (
            <label key={k} className={styles.kind}>
              <input
                type="radio"
                name={kindName}
                checked={v.hold_kind === k}
                // The dialog opens on the first question: its first choice while none is made.
                data-autofocus={(!v.hold_kind && k === 'discuss') || undefined}
                aria-invalid={form.errors.hold_kind ? true : undefined}
                onChange={() => form.set('hold_kind', k)}
              />
              <span className={styles.kindText}>
                <span>{t(`release.holdKind.${k}`)}</span>
                <span className={styles.secondary}>{t(`release.holdKind.${k}Help`)}</span>
              </span>
            </label>
          ))}
          {form.errors.hold_kind && (
            <div id={kindError} className={fieldStyles.error}>
              {form.errors.hold_kind}
            </div>
          )}
        </fieldset>
        <Field label={t('release.categoryLabel')} error={form.errors.category}>
          {(c) => (
            <Select<HoldForm['category']>
              {...c}
              value={v.category}
              onChange={(x) => form.set('category', x)}
              options={[{ value: '', label: t('release.categoryLabel'), disabled: true }, ...holdCategories.map((x) => ({ value: x, label: t(`release.category.${x}`) }))]}
            />
          )}
        </Field>
        <Field label={t('release.holdReason')} help={t('release.holdHelp')} error={form.errors.reason}>
          {(c) => <TextArea {...c} rows={2} maxLength={500} value={v.reason} onChange={(e) => form.set('reason', e.target.value)} />}
        </Field>
        <Field label={t('release.reviewBy')} help={t('release.reviewByHelp')} error={form.errors.review_by}>
          {(c) => <DateInput {...c} value={v.review_by} min={first} max={last} onChange={(day) => day >= first && day <= last && form.set('review_by', day)} />}
        </Field>
      </div>
    </Dialog>
  )
}
