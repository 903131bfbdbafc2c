import { useTranslation } from 'react-i18next'
import { PatientBanner } from '../../../components/PatientBanner'
import { VisitHistory } from '../../../components/VisitHistory'
import { Slot } from '../../../lib/slots'
import { Alert } from '../../../light/Alert'
import { Button } from '../../../light/Button'
import { Card } from '../../../light/Card'
import { Confirm } from '../../../light/Confirm'
import { BookIcon, CopyIcon } from '../../../light/icons'
import { QuestionCircleIcon, SaveIcon } from './icons'
import { toast } from '../../../light/Toast'
import { useChangeStatus } from '../api/changeStatus'
import { usePatientHead } from '../api/getPatientHead'
import { AmendmentsCard } from './AmendmentsCard'
import { CopyForwardDialog } from './CopyForwardDialog'
import { FindingsCard } from './FindingsCard'
import { closedOf, ComplaintSection, DiagnosesSection, ExaminationSection, OrdersSection, PlanSection, PrescriptionsSection, VitalsSection } from './sections'
import { ShortcutsDialog } from './ShortcutsDialog'
import { useVisitShortcuts } from './useVisitShortcuts'
import styles from './visit.module.css'
import { VisitActions } from './VisitActions'
import { useVisitForm } from './VisitFormProvider'
import { VisitHeader } from './VisitHeader'

/** The visit's form inside VisitFormProvider: its head and tools, the sections, and beside them what other features show of the visit. */
export function VisitForm() {
  const { t } = useTranslation()
  const { a, visit, mode, signed, canDiagnose, saving, dialog, setDialog, copiedIn, applied } = useVisitForm()
  const patient = usePatientHead(a.patient_id)
  const closed = closedOf(a.status)
  useVisitShortcuts()
  return (
    <div className={styles.page}>
      {patient.data && (
        <div className="emr-sticky">
          <PatientBanner patient={{ ...a.patient, ...patient.data.history }} />
        </div>
      )}
      <VisitHeader a={a} visit={visit} state={saving.state} savedAt={saving.savedAt} quiet={mode === 'read'} actions={<Actions />} />
      {mode === 'vitals' && canDiagnose && a.status === 'arrived' && <Alert type="info" title={t('visit.startFirst')} />}
      {mode === 'amend' && <Alert type="warning" title={t('visit.amendingBanner')} />}
      {saving.state === 'conflict' && (
        <Alert
          type="warning"
          role="alert"
          title={t('visit.conflictTitle')}
          description={t('visit.conflictText')}
          action={<Button onClick={() => void saving.reloadKeepingMine()}>{t('visit.conflictReload')}</Button>}
        />
      )}
      {saving.problem && <Alert type="error" title={saving.problem} role="alert" onClose={saving.dismissProblem} closeLabel={t('app.icons.close')} />}
      <div role="toolbar" aria-label={t('visit.tools')} className={styles.toolbar}>
        {mode === 'draft' && canDiagnose && (
          <>
            <Button icon={<BookIcon />} onClick={() => setDialog('apply')} aria-keyshortcuts="Alt+O">
              {t('orderSets.applyOpen')}
            </Button>
            <Button icon={<CopyIcon />} onClick={() => setDialog('copy')} aria-keyshortcuts="Alt+C">
              {t('copyForward.open')}
            </Button>
          </>
        )}
        {canDiagnose && (mode === 'draft' || signed) && (
          <Button icon={<SaveIcon />} onClick={() => setDialog('save')} aria-keyshortcuts="Alt+V">
            {t('orderSets.saveOpen')}
          </Button>
        )}
        <Button icon={<QuestionCircleIcon />} onClick={() => setDialog('help')} aria-keyshortcuts="?">
          {t('shortcuts.open')}
        </Button>
      </div>
      <div className={styles.columns}>
        <div className={styles.main}>
          {/* The visit saves by itself: the form is never sent (Enter in a field sends nothing). */}
          <form name="visit" className={`${styles.form} emr-record`} onSubmit={(e) => e.preventDefault()} noValidate>
            <VitalsSection />
            <FindingsCard>
              <ComplaintSection />
              <ExaminationSection />
            </FindingsCard>
            <DiagnosesSection />
            <OrdersSection />
            <PlanSection />
          </form>
          <div>
            <Slot name="visitBill" appointmentId={a.id} closed={closed} />
          </div>
        </div>
        <div className={styles.side}>
            {visit.amendments.length > 0 && <AmendmentsCard amendments={visit.amendments} />}
            <Slot name="visitResults" appointmentId={a.id} revision={saving.savedAt} />
            <Slot name="visitMedicines" patientId={a.patient_id} appointmentId={a.id} closed={closed} />
            <PrescriptionsSection />
            <Slot name="visitDocuments" patientId={a.patient_id} appointmentId={a.id} closed={closed} />
            {dialog === 'copy' && <CopyForwardDialog a={a} content={saving.values} onCopy={copiedIn} onClose={() => setDialog(null)} />}
            {dialog === 'help' && <ShortcutsDialog onClose={() => setDialog(null)} />}
            <Slot
              name="visitOrderSet"
              appointmentId={a.id}
              day={a.day}
              open={dialog === 'apply' || dialog === 'save' ? dialog : null}
              onClose={() => setDialog(null)}
              content={saving.values}
              prepare={saving.prepare}
              onApplied={applied}
            />
            <Card look="panel" level={3} title={t('visit.sections.previous')}>
              <VisitHistory patientId={a.patient_id} before={{ id: a.id, startsAt: a.starts_at }} />
            </Card>
        </div>
      </div>
      <SignConfirm />
    </div>
  )
}

/** The signature's question (Sign, from the head or Alt+S): what is typed is saved first, then signed. */
function SignConfirm() {
  const { t } = useTranslation()
  const { saving } = useVisitForm()
  return (
    <Confirm
      {...saving.signConfirm}
      title={t('visit.signTitle')}
      content={t('visit.signText')}
      okText={t('visit.sign')}
      cancelText={t('appointments.cancelButton')}
      closeLabel={t('app.icons.close')}
    />
  )
}

/** The head's actions for what its user may do now: start, sign, amend, discard or save an amendment. */
function Actions() {
  const { t } = useTranslation()
  const { a, mode, canDiagnose, canAmend, startAmending, discard, amend, saving } = useVisitForm()
  const start = useChangeStatus()
  return (
    <VisitActions
      mode={mode}
      canAmend={canAmend}
      onStart={canDiagnose && a.status === 'arrived' ? () => start.mutate({ a, action: 'start' }, { onSuccess: () => toast.success(t('appointments.done.start')) }) : undefined}
      starting={start.isPending}
      onSign={saving.sign}
      signing={saving.signing}
      onAmend={startAmending}
      onDiscard={discard}
      onSaveAmendment={amend}
    />
  )
}
