// Printing the child's immunisation card: the paper (a pocket A6 or an A5) and the language it
// is written in; issued, it opens on its print page (numbered and QR-verifiable, as every paper).
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { showFieldErrors } from '../../lib/formErrors'
import { LANGUAGE_NAMES, LANGUAGES } from '../../lib/i18n'
import { Field } from '../../light/Field'
import { FormDialog } from '../../light/FormDialog'
import { useForm } from '../../light/form'
import { Select } from '../../light/Input'
import { RadioGroup } from '../../light/RadioGroup'
import { issueCard, type CardPaper } from './api/issueCard'

export function CardDialog({ patientId, onClose }: { patientId: number; onClose(): void }) {
  const { t, i18n } = useTranslation()
  const navigate = useNavigate()
  const [busy, setBusy] = useState(false)
  const [problem, setProblem] = useState('')
  const form = useForm<{ paper: CardPaper; language: string }>({ paper: 'a6-portrait', language: LANGUAGES.find((l) => i18n.language.startsWith(l)) ?? 'en' })
  const submit = async () => {
    setBusy(true)
    setProblem('')
    try {
      const doc = await issueCard(patientId, form.values.paper, form.values.language)
      navigate(`/documents/${doc.id}/print`)
    } catch (e) {
      showFieldErrors(e, (f) => form.fail(f), (text) => setProblem(text))
    } finally {
      setBusy(false)
    }
  }
  return (
    <FormDialog title={t('immunisations.cardTitle')} okText={t('immunisations.cardPrint')} cancelText={t('immunisations.cancel')} busy={busy} form={form} onSubmit={submit} onClose={onClose}>
      <RadioGroup<CardPaper>
        legend={t('immunisations.cardPaper')}
        value={form.values.paper}
        onChange={(p) => form.set('paper', p)}
        options={[
          { value: 'a6-portrait', label: t('immunisations.cardA6') },
          { value: 'a5-portrait', label: t('immunisations.cardA5') },
        ]}
      />
      <Field label={t('immunisations.cardLanguage')}>
        {(c) => <Select {...c} value={form.values.language} onChange={(l) => form.set('language', l)} options={LANGUAGES.map((l) => ({ value: l, label: LANGUAGE_NAMES[l] }))} />}
      </Field>
      {problem && <p role="alert">{problem}</p>}
    </FormDialog>
  )
}
