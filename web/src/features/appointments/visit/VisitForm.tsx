import { BookOutlined, CopyOutlined, QuestionCircleOutlined, SaveOutlined } from '@ant-design/icons'
import { Alert, App, Button, Card, Col, Form, Row, Space } from 'antd'
import { useTranslation } from 'react-i18next'
import { PatientBanner } from '../../../components/PatientBanner'
import { VisitHistory } from '../../../components/VisitHistory'
import { Slot } from '../../../lib/slots'
import { useChangeStatus } from '../api/changeStatus'
import { usePatientHead } from '../api/getPatientHead'
import type { VisitContent } from '../api/types'
import { AmendmentsCard } from './AmendmentsCard'
import { CopyForwardDialog } from './CopyForwardDialog'
import { FindingsCard } from './FindingsCard'
import { closedOf, ComplaintSection, DiagnosesSection, ExaminationSection, OrdersSection, PlanSection, PrescriptionsSection, VitalsSection } from './sections'
import { ShortcutsDialog } from './ShortcutsDialog'
import { useVisitShortcuts } from './useVisitShortcuts'
import { VisitActions } from './VisitActions'
import { useVisitForm } from './VisitFormProvider'
import { VisitHeader } from './VisitHeader'

/** The visit's form inside VisitFormProvider: its head and tools, the sections, and beside them what other features show of the visit. */
export function VisitForm() {
  const { t } = useTranslation()
  const { a, visit, form, initial, mode, signed, canDiagnose, saving, valuesChanged, dialog, setDialog, copiedIn, applied } = useVisitForm()
  const patient = usePatientHead(a.patient_id)
  const closed = closedOf(a.status)
  useVisitShortcuts()
  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {patient.data && (
        <div className="emr-sticky">
          <PatientBanner patient={{ ...a.patient, ...patient.data.history }} />
        </div>
      )}
      <VisitHeader a={a} visit={visit} state={saving.state} savedAt={saving.savedAt} quiet={mode === 'read'} actions={<Actions />} />
      {mode === 'vitals' && canDiagnose && a.status === 'arrived' && <Alert type="info" showIcon title={t('visit.startFirst')} />}
      {mode === 'amend' && <Alert type="warning" showIcon title={t('visit.amendingBanner')} />}
      {saving.state === 'conflict' && (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={t('visit.conflictTitle')}
          description={t('visit.conflictText')}
          action={<Button onClick={() => void saving.reloadKeepingMine()}>{t('visit.conflictReload')}</Button>}
        />
      )}
      {saving.problem && <Alert type="error" showIcon title={saving.problem} role="alert" closable={{ onClose: saving.dismissProblem }} />}
      <Space wrap size={8} role="toolbar" aria-label={t('visit.tools')} className="emr-wrapping-buttons">
        {mode === 'draft' && canDiagnose && (
          <>
            <Button icon={<BookOutlined aria-hidden />} onClick={() => setDialog('apply')} aria-keyshortcuts="Alt+O">
              {t('orderSets.applyOpen')}
            </Button>
            <Button icon={<CopyOutlined aria-hidden />} onClick={() => setDialog('copy')} aria-keyshortcuts="Alt+C">
              {t('copyForward.open')}
            </Button>
          </>
        )}
        {canDiagnose && (mode === 'draft' || signed) && (
          <Button icon={<SaveOutlined aria-hidden />} onClick={() => setDialog('save')} aria-keyshortcuts="Alt+V">
            {t('orderSets.saveOpen')}
          </Button>
        )}
        <Button icon={<QuestionCircleOutlined aria-hidden />} onClick={() => setDialog('help')} aria-keyshortcuts="?">
          {t('shortcuts.open')}
        </Button>
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} xl={16}>
          <Form<VisitContent> form={form} name="visit" layout="vertical" className="emr-record" initialValues={initial} onValuesChange={valuesChanged}>
            <VitalsSection />
            <FindingsCard>
              <ComplaintSection />
              <ExaminationSection />
            </FindingsCard>
            <DiagnosesSection />
            <OrdersSection />
            <PlanSection />
          </Form>
          <div style={{ marginTop: 16 }}>
            <Slot name="visitBill" appointmentId={a.id} closed={closed} />
          </div>
        </Col>
        <Col xs={24} xl={8}>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
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
            <Card title={t('visit.sections.previous')}>
              <VisitHistory patientId={a.patient_id} before={{ id: a.id, startsAt: a.starts_at }} />
            </Card>
          </Space>
        </Col>
      </Row>
    </Space>
  )
}

/** The head's actions for what its user may do now: start, sign, amend, discard or save an amendment. */
function Actions() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const { a, mode, canDiagnose, canAmend, startAmending, discard, amend, saving } = useVisitForm()
  const start = useChangeStatus()
  return (
    <VisitActions
      mode={mode}
      canAmend={canAmend}
      onStart={canDiagnose && a.status === 'arrived' ? () => start.mutate({ a, action: 'start' }, { onSuccess: () => void message.success(t('appointments.done.start')) }) : undefined}
      starting={start.isPending}
      onSign={saving.sign}
      signing={saving.signing}
      onAmend={startAmending}
      onDiscard={discard}
      onSaveAmendment={amend}
    />
  )
}
