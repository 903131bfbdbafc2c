import { Alert, QRCode, Result, Spin, Tag } from 'antd'
import type { TFunction } from 'i18next'
import { useEffect, useRef } from 'react'
import { useTranslation } from 'react-i18next'
import { useLocation, useNavigate, useParams } from 'react-router'
import { ApiError } from '../../lib/api'
import { useClinic } from '../../lib/clinic'
import { useTextsIn } from '../../lib/i18n'
import { documentDay } from '../../lib/time'
import { useViewSubject } from '../../lib/viewSubject'
import styles from '../../components/print/print.module.css'
import { PAGE, PAGES } from '../../components/print/pageFooter'
import { PrintFrame } from '../../components/print/PrintFrame'
import { fullName } from '../../lib/patient'
import { SignedBy } from '../../components/print/SignedBy'
import { usePrint } from '../../components/print/usePrint'
import { useDocumentPatient } from './api/documents'
import { useDocument } from './api/getDocument'
import { usePrintDocument } from './api/printDocument'
import { groupedCode, printPath, shortHash, verifyURL, type ClinicalDocument } from './api/types'
import { DocumentContent } from './components/DocumentContent'
import { NoPublicAddress } from './components/NoPublicAddress'
import own from './PrintDocumentPage.module.css'

/** An issued document as it prints: clinic header, content, the doctor's signature, and the QR code that checks it. */
export default function PrintDocumentPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const id = Number(useParams().id)
  const { data: doc, error, isLoading } = useDocument(id)
  const record = usePrintDocument()
  const { print, busy } = usePrint(() => record.mutateAsync(id))
  const td = useTextsIn(doc?.language ?? 'en')
  // The patient's name and number run at the foot of every page.
  const { data: patient } = useDocumentPatient(doc?.patient_id)
  useViewSubject(doc ? doc.number : undefined)
  // "Issue and print" lands here asking for the print (?print=1): once, when the sheet is
  // drawn; the address then drops the question, so a reload does not print again.
  const asked = new URLSearchParams(useLocation().search).get('print') === '1'
  const printed = useRef(false)
  const ready = !!doc && !!td && doc.status === 'issued'
  useEffect(() => {
    if (asked && ready && !printed.current) {
      printed.current = true
      navigate(printPath({ id }), { replace: true })
      void print()
    }
  })

  if (isLoading || (doc && !td)) return <Spin />
  if (error || !doc || !td) return <Result status="404" title={error instanceof ApiError ? error.message : t('documents.notFound')} />
  const [size, orientation] = doc.paper.split('-')
  return (
    <PrintFrame
      // CSS names no A6 page (A5 and up only): a pocket card's is given in millimetres, else the browser prints it on Letter.
      size={size === 'a6' ? (orientation === 'landscape' ? '148mm 105mm' : '105mm 148mm') : `${size.toUpperCase()} ${orientation}`}
      footer={patient && td('rx.pageFooter', { patient: fullName(patient, doc.language), number: patient.mrn, page: PAGE, pages: PAGES })}
      action={doc.status === 'issued' ? { label: t('documents.print'), busy, onPrint: () => void print() } : undefined}
      status={<Tag color={doc.status === 'issued' ? 'green' : 'default'}>{t(`documents.status.${doc.status}`)}</Tag>}
      notices={
        doc.status === 'cancelled' ? <Alert type="warning" showIcon title={t('documents.cancelledHint', { reason: doc.cancel_reason })} /> : <NoPublicAddress />
      }
      sheet={(testId) => <Sheet doc={doc} t={td} testId={testId} />}
      testId="document-sheet"
    />
  )
}

/** The papers a patient hands to others (an employer, a school, another doctor): they carry a captioned signature and room for the clinic's seal, and in Vietnamese the national header. */
const SIGNED_PAPERS: string[] = ['medical_certificate', 'fitness_to_work', 'referral']

/** The sheet, in the document's own language (t), whatever the interface's. */
function Sheet({ doc, t, testId }: { doc: ClinicalDocument; t: TFunction; testId?: string }) {
  // The check's address is the clinic's public address as set now (it may move), else the one in use.
  const { data: clinic } = useClinic()
  const [size, orientation] = doc.paper.split('-')
  const paper = size === 'a4' ? styles.A4 : size === 'a6' ? styles.A6 : styles.A5
  const landscape = orientation === 'landscape' ? (size === 'a4' ? own.a4Landscape : own.a5Landscape) : ''
  // An upright sheet is too narrow for the check, the seal and the signature side by side at
  // full size: they are drawn on one line, the seal over the signature's start as it is
  // stamped (and the check smaller on A5), so a short paper ends on its first page and a long
  // one carries no second line of them (the clinic manager's run, 2026-11-29).
  const compact = orientation !== 'landscape'
  const url = verifyURL(doc.code, clinic?.public_url)
  return (
    <article className={`${styles.sheet} ${paper} ${landscape} ${compact ? own.compact : ''}`} aria-label={t('documents.sheet')} data-testid={testId} lang={doc.language}>
      {doc.status === 'cancelled' && <div className={styles.void}>{t('documents.voided')}</div>}
      {doc.language === 'vi' && SIGNED_PAPERS.includes(doc.kind) && (
        <div className={own.stateHeader} data-testid="state-header">
          <strong>{t('documents.stateName')}</strong>
          <div className={own.motto}>{t('documents.stateMotto')}</div>
        </div>
      )}
      <header className={styles.header}>
        <div className={styles.number}>{t('documents.number', { number: doc.number })}</div>
        <div className={styles.clinic}>{doc.clinic.name || t('app.name')}</div>
        {doc.clinic.address && <div style={{ whiteSpace: 'pre-line' }}>{doc.clinic.address}</div>}
        {doc.clinic.phone && <div>{t('rx.phone', { phone: doc.clinic.phone })}</div>}
      </header>
      <DocumentContent blocks={doc.content} small={size === 'a6' || doc.kind === 'immunisation_card'} />
      <div className={own.footer}>
        <div className={own.verify}>
          <QRCode value={url} type="svg" size={size === 'a4' ? 96 : size === 'a6' ? 56 : 72} bordered={false} color="#000" bgColor="#fff" aria-label={t('documents.qrAlt')} />
          <div className={own.verifyText}>
            <div>{t('documents.verifyAt')}</div>
            <div className={own.mono}>{url}</div>
            <div>
              {t('documents.code')}: <span className={own.mono}>{groupedCode(doc.code)}</span>
            </div>
            <div>
              SHA-256: <span className={own.mono}>{shortHash(doc.content_hash)}…</span>
            </div>
            <div>{t('documents.issuedOn', { date: documentDay(doc.issued_at, doc.language) })}</div>
            {doc.portal_code && (
              <div data-testid="portal-code">
                {t('documents.portalCode', { url: `${(clinic?.public_url || window.location.origin).replace(/\/$/, '')}/portal` })}{' '}
                <span className={own.mono}>{doc.portal_code}</span>
              </div>
            )}
          </div>
        </div>
        <div className={`${styles.signatureBlock} ${own.signature}`}>
          {SIGNED_PAPERS.includes(doc.kind) && (
            <div className={own.seal} data-testid="seal-place">
              {t('documents.sealPlace')}
            </div>
          )}
          <SignedBy
            doctor={doc.doctor}
            signature={doc.has_signature ? `/api/documents/${doc.id}/signature` : undefined}
            signatureAlt={t('documents.signatureAlt')}
            t={t}
            caption={SIGNED_PAPERS.includes(doc.kind) && <div className={own.caption}>{t('documents.signatureCaption')}</div>}
          />
        </div>
      </div>
    </article>
  )
}
