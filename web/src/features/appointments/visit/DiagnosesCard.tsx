import { memo } from 'react'
import { useTranslation } from 'react-i18next'
import { StarButton } from '../../../components/StarButton'
import { Button } from '../../../light/Button'
import { Checkbox } from '../../../light/Checkbox'
import { Field } from '../../../light/Field'
import { PlusIcon } from '../../../light/icons'
import { Input } from '../../../light/Input'
import { CodeSelect } from './CodeSelect'
import { useDraftError, useDraftRows, useDraftValue } from './draft'
import { RemoveButton } from './RemoveButton'
import { Cell, Section } from './Section'
import styles from './visit.module.css'
import { useVisitDraft } from './VisitFormProvider'

/**
 * The visit's diagnoses: each a code from the list or free text, one primary. Inside the
 * visit's form; a removal is a change like any other (onChange). The card renders as rows come
 * and go; each row's fields follow their own values.
 */
export const DiagnosesCard = memo(function DiagnosesCard({ disabled, labels, labelled, onChange }: { disabled: boolean; labels: Record<string, string>; labelled: (code: string, label: string) => void; onChange: () => void }) {
  const { t } = useTranslation()
  const draft = useVisitDraft()
  const rows = useDraftRows(draft, 'diagnoses')
  return (
    <Section id="visit-diagnoses" title={t('visit.sections.diagnoses')}>
      {rows.length === 0 && <p className={styles.none}>{t('visit.noDiagnoses')}</p>}
      {rows.map((key, i) => (
        <DiagnosisRow key={key} index={i} disabled={disabled} labels={labels} labelled={labelled} onRemove={onChange} />
      ))}
      {!disabled && (
        <Button data-action="add-diagnosis" icon={<PlusIcon />} onClick={() => draft.add('diagnoses', { code: '', text: '', primary: rows.length === 0 })}>
          {t('visit.addDiagnosis')}
        </Button>
      )}
    </Section>
  )
})

/** A diagnosis: its code, its text, whether it is the primary one; the first row's labels name the columns. */
const DiagnosisRow = memo(function DiagnosisRow({ index, disabled, labels, labelled, onRemove }: { index: number; disabled: boolean; labels: Record<string, string>; labelled: (code: string, label: string) => void; onRemove: () => void }) {
  const { t } = useTranslation()
  const draft = useVisitDraft()
  const at = `diagnoses.${index}`
  const code = useDraftValue<string | undefined>(draft, `${at}.code`)
  const text = useDraftValue<string | undefined>(draft, `${at}.text`)
  const primary = useDraftValue<boolean | undefined>(draft, `${at}.primary`)
  const codeError = useDraftError(draft, `${at}.code`)
  const textError = useDraftError(draft, `${at}.text`)
  const first = index === 0
  // A code chosen here is remembered with its label: a row drawn anew (the first removed, a
  // merge) shows it in full, not as the bare code.
  const codeSelect = (id?: string) => (
    <CodeSelect
      id={id}
      value={code}
      onChange={(v, label) => {
        if (v && label) labelled(v, label)
        draft.set(`${at}.code`, v)
      }}
      disabled={disabled}
      initialLabel={labels[code ?? '']}
    />
  )
  const textInput = (c: { id?: string; 'aria-describedby'?: string; 'aria-invalid'?: true }) => (
    <Input {...c} placeholder={t('visit.textPlaceholder')} aria-label={t('visit.fields.text')} maxLength={300} disabled={disabled} value={text ?? ''} onChange={(e) => draft.set(`${at}.text`, e.target.value)} />
  )
  return (
    <div className={styles.row}>
      {first ? (
        <Field label={t('visit.fields.code')} error={codeError} className={styles.wide}>
          {(c) => codeSelect(c.id)}
        </Field>
      ) : (
        <Cell error={codeError} className={styles.wide}>
          {() => codeSelect()}
        </Cell>
      )}
      {first ? (
        <Field label={t('visit.fields.text')} error={textError} className={styles.wide}>
          {(c) => textInput(c)}
        </Field>
      ) : (
        <Cell error={textError} className={styles.wide}>
          {(c) => textInput(c)}
        </Cell>
      )}
      <div className={[styles.primary, first ? styles.labelled : ''].filter(Boolean).join(' ')}>
        <Checkbox
          checked={Boolean(primary)}
          disabled={disabled}
          onChange={(checked) => {
            draft.set(`${at}.primary`, checked)
            if (!checked) return
            // One primary diagnosis: choosing one clears the others.
            const all = (draft.get('diagnoses') as unknown[] | undefined) ?? []
            all.forEach((_, o) => o !== index && draft.put(`diagnoses.${o}.primary`, false))
          }}
        >
          {t('visit.fields.primary')}
        </Checkbox>
      </div>
      <div className={[styles.actions, first ? styles.labelled : ''].filter(Boolean).join(' ')}>
        {code && !disabled ? <StarButton kind="code" refId={code} name={code} /> : null}
        {!disabled && (
          <RemoveButton
            label={t('visit.removeDiagnosis')}
            onClick={() => {
              draft.remove('diagnoses', index)
              onRemove()
            }}
          />
        )}
      </div>
    </div>
  )
})
