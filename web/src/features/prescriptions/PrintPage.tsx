import { Alert, Radio, Result, Spin } from 'antd'
import dayjs from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import { usePrescription } from './api/getPrescription'
import { usePrintPrescription } from './api/printPrescription'
import { editable, type Prescription } from './api/types'
import { useClinic } from '../../lib/clinic'
import { StatusTag, useLineText } from './components/PrescriptionList'
import { ApiError } from '../../lib/api'
import { formatDay } from '../../lib/time'
import { PAGE, PAGES } from '../../components/print/pageFooter'
import { PrintFrame } from '../../components/print/PrintFrame'
import { SignedBy } from '../../components/print/SignedBy'
import { usePrint } from '../../components/print/usePrint'
import { useCan } from '../../lib/auth/can'
import { fullName } from '../../lib/patient'
import { useViewSubject } from '../../lib/viewSubject'
import { AllergyLine, PatientBanner } from '../../components/PatientBanner'
import { TierTag, useFindingText } from '../../components/MedicineSafety'
import styles from '../../components/print/print.module.css'
import { sexLabel } from '../../lib/labels'

type Paper = 'A5' | 'A4'

/** The printed prescription: clinic header, patient, lines, prescriber and signature. Printing issues it. */
export default function PrintPage() {
  const { t } = useTranslation()
  const id = Number(useParams().id)
  const { data: rx, error, isLoading } = usePrescription(id)
  const { data: clinic } = useClinic()
  const issue = usePrintPrescription()
  const { print, busy } = usePrint(rx && (() => issue.mutateAsync(rx)))
  const canWrite = useCan('write prescription')
  const [paper, setPaper] = useState<Paper>(() => (localStorage.getItem('rxPaper') === 'A4' ? 'A4' : 'A5'))
  const lineText = useLineText()
  useViewSubject(rx?.patient ? fullName(rx.patient) : undefined)

  if (isLoading) return <Spin />
  if (error || !rx) return <Result status="404" title={error instanceof ApiError ? error.message : t('rx.notFound')} />

  const choosePaper = (p: Paper) => (setPaper(p), localStorage.setItem('rxPaper', p))
  const pending = editable(rx)

  return (
    <PrintFrame
      size={paper}
      footer={rx.patient ? t('rx.pageFooter', { patient: fullName(rx.patient), number: rx.patient.mrn, page: PAGE, pages: PAGES }) : undefined}
      controls={<Radio.Group value={paper} onChange={(e) => choosePaper(e.target.value as Paper)} optionType="button" options={['A5', 'A4']} aria-label={t('rx.paper')} />}
      action={canWrite && rx.status !== 'cancelled' ? { label: pending ? t('rx.issueAndPrint') : t('rx.printAgain'), busy, onPrint: () => void print() } : undefined}
      status={<StatusTag status={rx.status} />}
      notices={
        <>
          {pending && canWrite && <Alert type="info" showIcon title={t('rx.issueHint')} />}
          {/* An unprinted prescription's warnings are about whoever would print it: only for prescribers. */}
          {(canWrite || !pending) &&
            rx.warnings.map((w) => (
              <Alert key={w} type="warning" showIcon title={t(`rx.warnings.${w}`)} data-testid="rx-warning" />
            ))}
          {rx.patient && <PatientBanner patient={rx.patient} />}
          {pending && <SafetySummary rx={rx} />}
        </>
      }
      sheet={(testId) => <Sheet rx={rx} clinic={clinic} paper={paper} lineText={lineText} testId={testId} />}
      testId="rx-sheet"
    />
  )
}

interface SheetProps {
  rx: Prescription
  clinic?: { name: string; address: string; phone: string }
  paper: Paper
  lineText: ReturnType<typeof useLineText>
  testId?: string
}

function Sheet({ rx, clinic, paper, lineText, testId }: SheetProps) {
  const { t } = useTranslation()
  const p = rx.patient
  // An unissued sheet is dated the day it is looked at, fixed for as long as it is open.
  const [now] = useState(() => new Date())
  const date = formatDay(rx.issued_at ?? now)
  // The day the paper speaks for (ISO, to compare with the licences' dates): its issue, so that
  // a reprint says what the first print said, even after a licence has run out.
  const today = dayjs(rx.issued_at ?? now).format('YYYY-MM-DD')
  return (
    <article className={`${styles.sheet} ${styles[paper]}`} aria-label={t('rx.sheet')} data-testid={testId}>
      {rx.status === 'cancelled' && <div className={styles.void}>{t('rx.voided')}</div>}
      <header className={styles.header}>
        <div className={styles.number}>{t('rx.number', { id: rx.id })}</div>
        <div className={styles.clinic}>{clinic?.name || t('app.name')}</div>
        {clinic?.address && <div style={{ whiteSpace: 'pre-line' }}>{clinic.address}</div>}
        {clinic?.phone && <div>{t('rx.phone', { phone: clinic.phone })}</div>}
      </header>
      <div className={styles.patient}>
        <div>
          {t('rx.sheetFields.patient')}: <strong>{p ? fullName(p) : '____________________'}</strong>
        </div>
        <div>
          {t('rx.sheetFields.date')}: {date}
        </div>
        <div>
          {t('rx.sheetFields.age')}: {p ? p.age : '____'} &nbsp; {t('rx.sheetFields.sex')}: {p ? t(sexLabel[p.sex]) : '____'}
        </div>
        <div>
          {t('rx.sheetFields.mrn')}: {p?.mrn ?? '____'}
        </div>
        <div style={{ gridColumn: '1 / -1' }}>
          {t('rx.sheetFields.address')}: {p ? p.address || '—' : '______________________________'}
        </div>
        {p && (
          <div style={{ gridColumn: '1 / -1' }}>
            <AllergyLine facts={p} />
          </div>
        )}
        {rx.diagnoses.length > 0 && (
          <div style={{ gridColumn: '1 / -1' }} data-testid="rx-diagnoses">
            {t('rx.sheetFields.diagnoses')}: {rx.diagnoses.map((d) => (d.code ? `${d.code} ${d.label ?? ''}`.trim() : d.text)).join('; ')}
          </div>
        )}
      </div>
      <div className={styles.rx}>℞</div>
      <ol className={styles.lines}>
        {rx.items.map((it, i) => (
          <li key={i}>
            <strong>{it.medicine}</strong>
            <div>{lineText(it)}</div>
            {it.instructions && <div>{it.instructions}</div>}
          </li>
        ))}
      </ol>
      {rx.notes && <p style={{ whiteSpace: 'pre-line' }}>{rx.notes}</p>}
      <div className={styles.signatureBlock}>
        <SignedBy doctor={rx.prescriber} signature={rx.has_signature ? rx.signature_url : undefined} signatureAlt={t('rx.signatureAlt')} t={t} validOn={today} />
      </div>
    </article>
  )
}

/** Before issuing: the lines' safety findings, each overridden with its reason (shown on screen, printed nowhere). */
function SafetySummary({ rx }: { rx: Prescription }) {
  const { t } = useTranslation()
  const text = useFindingText()
  if (rx.safety.length === 0) return null
  const open = rx.safety.filter((f) => !f.overridden && f.requires_reason)
  const reasoned = rx.safety.some((f) => f.requires_reason)
  return (
    <Alert
      type={open.length > 0 ? 'error' : reasoned ? 'warning' : 'info'}
      showIcon
      data-testid="rx-safety-summary"
      title={open.length > 0 ? t('rx.safety.unresolved') : reasoned ? t('rx.safety.overridden') : t('rx.safety.cautionTitle')}
      description={
        <ul style={{ margin: 0, paddingInlineStart: 18 }}>
          {rx.safety.map((f) => (
            <li key={`${f.line}-${f.key}`}>
              <TierTag f={f} />
              {t('rx.line', { n: f.line + 1 })}, {rx.items[f.line]?.medicine}: {text(f)}
              {f.overridden && ` — ${t('rx.safety.reason')}: ${rx.items[f.line]?.override_reason}`}
            </li>
          ))}
        </ul>
      }
    />
  )
}
