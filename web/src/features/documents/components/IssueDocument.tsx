// Issuing a document on the light components: a template chosen (a select with search), its
// declared fields, and beside them the document as it will print, filled in as they are typed.
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { ApiError } from '../../../lib/api'
import { useDebounced } from '../../../lib/debounce'
import { currentLanguage, LANGUAGE_NAMES, type Language } from '../../../lib/i18n'
import { readNumber } from '../../../lib/number'
import { Alert } from '../../../light/Alert'
import { Button } from '../../../light/Button'
import { DateInput } from '../../../light/DateInput'
import { Dialog } from '../../../light/Dialog'
import { Empty } from '../../../light/Empty'
import { Field } from '../../../light/Field'
import { useForm, type Form } from '../../../light/form'
import { Input, TextArea } from '../../../light/Input'
import { NumberNote } from '../../../light/NumberInput'
import { Spin } from '../../../light/Spin'
import { useToast } from '../../../light/Toast'
import print from '../../../components/print/print.module.css'
import { useIssueDocument } from '../api/issueDocument'
import { usePreview } from '../api/previewTemplate'
import { useTemplates } from '../api/templates'
import { printPath, type DocumentField, type DocumentTemplate } from '../api/types'
import { DocumentContent } from './DocumentContent'
import styles from './documents.module.css'
import { NoPublicAddress } from './NoPublicAddress'
import { SearchSelect } from '../../../light/SearchSelect'

interface Props {
  patientId: number
  /** The visit it is issued from; none for a document not tied to a visit. */
  appointmentId?: number
  open: boolean
  onClose(): void
}

/** The fields' values by key, as typed (a date as year-month-day). */
type Values = Record<string, string>

/** A number as the language writes it, read; undefined when it cannot be. */
const numberOf = (text: string, lang: string) => readNumber(text, lang).value

/** The fields' values as the API takes them: text, numbers read, dates as year-month-day; empty ones left out. */
function values(raw: Values, fields: DocumentField[], lang: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const f of fields) {
    const v = raw[f.key]?.trim()
    if (!v) continue
    const n = f.type === 'number' ? numberOf(v, lang) : undefined
    out[f.key] = f.type === 'number' ? (n === undefined ? v : String(n)) : (raw[f.key] ?? '')
  }
  return out
}

/** The input a declared field takes, in its Field (label, required mark, message). */
function FieldInput({ field, form }: { field: DocumentField; form: Form<Values> }) {
  const value = form.values[field.key] ?? ''
  const set = (v: string) => form.set(field.key, v)
  return (
    <Field label={field.label} required={field.required} error={form.errors[field.key]}>
      {(c) => {
        switch (field.type) {
          case 'long_text':
            return <TextArea {...c} className={styles.grow} rows={2} maxLength={4000} value={value} onChange={(e) => set(e.target.value)} />
          case 'number':
            // No number below 0 (the library's field took none): the minus sign is not kept.
            return (
              <>
                <Input {...c} inputMode="decimal" autoComplete="off" maxLength={30} value={value} onChange={(e) => set(e.target.value.replace(/-/g, ''))} />
                <NumberNote text={value} />
              </>
            )
          case 'date':
            return <DateInput {...c} className={styles.date} clearable value={value} onChange={set} />
          default:
            return <Input {...c} maxLength={300} value={value} onChange={(e) => set(e.target.value)} />
        }
      }}
    </Field>
  )
}

/** Issue a document: pick a template, fill its fields, see it filled in, then issue and print. */
export function IssueDocument({ patientId, appointmentId, open, onClose }: Props) {
  const { t, i18n } = useTranslation()
  const toast = useToast()
  const navigate = useNavigate()
  const templates = useTemplates()
  const issue = useIssueDocument()
  const [templateId, setTemplateId] = useState<number>()
  const [problem, setProblem] = useState<string>()
  const lang = currentLanguage()
  // A visit's templates first in the interface's language; without a visit, those that need none.
  const usable = useMemo(
    () =>
      (templates.data ?? [])
        .filter((tp) => appointmentId !== undefined || !tp.needs_visit)
        .sort((a, b) => Number(b.language === lang) - Number(a.language === lang)),
    [templates.data, appointmentId, lang],
  )
  const chosen: DocumentTemplate | undefined = usable.find((tp) => tp.id === templateId)
  const fields = chosen?.fields ?? []
  const required = t('validation.required')
  const form = useForm<Values>(
    {},
    Object.fromEntries(
      fields.map((f) => [
        f.key,
        (v: string | undefined) => {
          if (!v?.trim()) return f.required ? required : undefined
          if (f.type !== 'number') return undefined
          const { problem } = readNumber(v, i18n.language)
          return problem && t(problem)
        },
      ]),
    ),
  )
  const filled = useDebounced(values(form.values, fields, i18n.language), 400)
  const preview = usePreview(
    chosen && open ? { body: chosen.body, fields: chosen.fields ?? [], language: chosen.language, patient_id: patientId, appointment_id: appointmentId ?? null, values: filled } : undefined,
  )
  // The filled document is drawn again only when the preview changes, not at each keystroke.
  const content = useMemo(() => preview.data && <DocumentContent blocks={preview.data} />, [preview.data])

  const choose = (id: string) => {
    setTemplateId(Number(id))
    const tp = usable.find((x) => String(x.id) === id)
    form.reset(Object.fromEntries((tp?.fields ?? []).map((f) => [f.key, ''])))
  }

  const submit = async () => {
    if (!chosen || !form.check()) return
    setProblem(undefined)
    try {
      const d = await issue.mutateAsync({ template_id: chosen.id!, patient_id: patientId, appointment_id: appointmentId ?? null, fields: values(form.values, fields, i18n.language) })
      toast.success(t('documents.issued', { number: d.number }))
      onClose()
      form.reset({})
      setTemplateId(undefined)
      navigate(`${printPath(d)}?print=1`)
    } catch (e) {
      if (e instanceof ApiError) {
        setProblem(e.display)
        form.fail(Object.fromEntries(Object.entries(e.fields ?? {}).map(([name, errors]) => [name.replace(/^fields\./, ''), errors.join(' ')])))
      }
    }
  }

  return (
    <Dialog
      open={open}
      title={t('documents.issueTitle')}
      width={980}
      closeLabel={t('app.icons.close')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('documents.close')}</Button>
          <Button variant="primary" disabled={!chosen} loading={issue.isPending} onClick={() => void submit()}>
            {t('documents.issueAndPrint')}
          </Button>
        </>
      }
    >
      <div className={styles.issue}>
        <div className={styles.notes}>
          <div data-form={form.scope} className={styles.fields}>
            <Field label={t('documents.template')} required>
              {(c) => (
                <SearchSelect
                  {...c}
                  label={t('documents.template')}
                  placeholder={t('documents.chooseTemplate')}
                  value={templateId === undefined ? undefined : String(templateId)}
                  onChange={choose}
                  options={usable.map((tp) => ({ value: String(tp.id), label: `${tp.name} — ${LANGUAGE_NAMES[tp.language as Language]}` }))}
                />
              )}
            </Field>
            {fields.map((f) => (
              <FieldInput key={`${chosen?.id}-${f.key}`} field={f} form={form} />
            ))}
          </div>
          {chosen && <NoPublicAddress />}
          {problem && <Alert type="error" title={problem} role="alert" />}
        </div>
        <div aria-label={t('documents.preview')} role="region" className={`${print.sheet} ${styles.preview}`} lang={chosen?.language}>
          {!chosen ? (
            <Empty small>{t('documents.chooseTemplate')}</Empty>
          ) : preview.error ? (
            <Alert type="error" title={preview.error instanceof ApiError ? preview.error.display : String(preview.error)} />
          ) : preview.data ? (
            <div className={preview.isFetching ? styles.fetching : undefined} aria-busy={preview.isFetching || undefined}>
              {content}
            </div>
          ) : (
            <div className={styles.loading}>
              <Spin />
            </div>
          )}
        </div>
      </div>
    </Dialog>
  )
}
