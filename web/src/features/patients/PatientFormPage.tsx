import { Alert, App, Button, Flex, Form, Result, Space, Spin, Typography } from 'antd'
import { useState, type KeyboardEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router'
import { ApiError } from '../../lib/api'
import { useOthersPresent } from '../../lib/live'
import { findDuplicates } from './api/findDuplicates'
import { getPatient, usePatient } from './api/getPatient'
import { useSavePatient } from './api/savePatient'
import { chartPath, emptyPatient, fullName, type Patient, type PatientInput } from './api/types'
import { ContactCard } from './form/ContactCard'
import { ContactPersonCards } from './form/ContactPersonCards'
import { DuplicateComparison } from './form/DuplicateComparison'
import { FamilySocialCard } from './form/FamilySocialCard'
import { HistoryCard } from './form/HistoryCard'
import { IdentityCard } from './form/IdentityCard'
import { mergeMine } from './merge'

const inputOf = (p: Patient): PatientInput => {
  const { id: _id, mrn: _mrn, has_photo: _h, archived: _a, archived_at: _aa, archive_reason: _r, created_at: _c, updated_at: _u, version: _v, ...input } = p
  return input
}

/**
 * Enter confirms a date, picks an option or ends a line; it never saves the patient (a
 * half-filled form was registered by Enter in the birth date). Saving is the Save button.
 */
const noEnterSubmit = (e: KeyboardEvent<HTMLFormElement>) => {
  const target = e.target as HTMLElement
  if (e.key === 'Enter' && target.tagName === 'INPUT') e.preventDefault()
}

/** /masterfile/patient_form/{id}: "new" registers a patient, a number edits one. */
export default function PatientFormPage() {
  const { t } = useTranslation()
  const params = useParams()
  const id = params.id === 'new' ? undefined : Number(params.id)
  const existing = usePatient(id)
  if (id && existing.isError) return <Result status="404" subTitle={t('patients.notFound')} />
  if (id && !existing.data) return <Spin />
  return <PatientForm key={id ?? 'new'} patient={existing.data} latest={existing.data} />
}

/**
 * patient is what the form opened with; latest is the record as it is now, re-read when
 * someone else saves it (the live push channel refreshes it), so the form can warn.
 */
function PatientForm({ patient, latest }: { patient?: Patient; latest?: Patient }) {
  const { t } = useTranslation()
  const { message, modal } = App.useApp()
  const navigate = useNavigate()
  const id = patient?.id
  const save = useSavePatient(id)
  const [form] = Form.useForm<PatientInput>()
  // What the form was loaded with, and its version: the base for saving and for merging.
  const [loaded, setLoaded] = useState<PatientInput>(() => (patient ? inputOf(patient) : emptyPatient()))
  const [version, setVersion] = useState(patient?.version)
  const [conflict, setConflict] = useState(false)
  // Set from the first click until the save ends, so a double click or Enter saves once.
  const [busy, setBusy] = useState(false)
  // Who else has this patient's form open right now (the live connection's presence).
  const others = useOthersPresent(id ? `presence-patient-edit.${id}` : undefined)
  // Someone else saved this patient after the form was loaded: say so before a save fails.
  const changedMeanwhile = !conflict && !busy && latest !== undefined && version !== undefined && latest.version > version

  const submit = async (values: PatientInput) => {
    if (busy) return
    setBusy(true)
    const input = { ...emptyPatient(), ...form.getFieldsValue(true), ...values } as PatientInput
    let distinctFrom: number[] = []
    if (!id) {
      const twins = await findDuplicates(input).catch(() => [])
      if (twins.length > 0) {
        // Side by side, the fields that match in bold; registering needs the explicit
        // "different person" button (focus starts on Cancel, so Enter does not register).
        const go = await modal.confirm({
          title: t('patients.duplicatesTitle'),
          width: 720,
          autoFocusButton: 'cancel',
          content: <DuplicateComparison input={input} twins={twins} />,
          okText: t('patients.saveAnyway'),
          cancelText: t('patients.cancel'),
        })
        if (!go) {
          setBusy(false)
          return
        }
        distinctFrom = twins.map((p) => p.id)
      }
    }
    save.mutate(
      { input, version, distinctFrom },
      {
        onSettled: () => setBusy(false),
        onSuccess: (p) => {
          if (id) {
            setVersion(p.version)
          } else {
            // This tab stays open for the next registration: empty, so that Save cannot
            // register the same person twice.
            form.resetFields()
          }
          void message.success(t('patients.saved'))
          navigate(chartPath(p))
        },
        onError: (e) => {
          if (!(e instanceof ApiError)) return
          if (e.status === 409 && e.code === 'error.conflict') {
            setConflict(true)
          } else if (e.status === 422 && Object.keys(e.fields).length > 0) {
            form.setFields(
              // The server names fields as paths such as "history.allergies.0.substance".
              Object.entries(e.fields).map(([field, errors]) => ({ name: field.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p)) as never, errors })),
            )
            void message.error(t('patients.checkFields'))
          } else {
            void message.error(e.display || t('errors.generic'))
          }
        },
      },
    )
  }

  const reloadKeepingMine = async () => {
    const latest = await getPatient(id!)
    const merged = mergeMine(loaded, { ...emptyPatient(), ...form.getFieldsValue(true) } as PatientInput, inputOf(latest))
    setLoaded(inputOf(latest))
    setVersion(latest.version)
    form.setFieldsValue(merged)
    setConflict(false)
    void message.info(t('patients.conflictMerged'))
  }

  return (
    <Form<PatientInput> form={form} name="patient" layout="vertical" initialValues={loaded} onFinish={submit} onKeyDown={noEnterSubmit} scrollToFirstError>
      <Flex justify="space-between" align="center" wrap gap={12} style={{ marginBottom: 16 }}>
        <Typography.Title level={2} className="page-title" style={{ margin: 0 }}>
          {patient ? `${patient.mrn} — ${fullName(patient)}` : t('patients.new')}
        </Typography.Title>
        <Space>
          <Button onClick={() => navigate(-1)}>{t('patients.cancel')}</Button>
          <Button type="primary" htmlType="submit" loading={busy}>
            {t('patients.save')}
          </Button>
        </Space>
      </Flex>
      {others.length > 0 && <Alert type="info" showIcon style={{ marginBottom: 16 }} data-testid="also-editing" title={t('patients.alsoEditing', { names: others.join(', ') })} />}
      {(conflict || changedMeanwhile) && (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t(conflict ? 'patients.conflictTitle' : 'patients.changedTitle')}
          description={t(conflict ? 'patients.conflictText' : 'patients.changedText')}
          action={<Button onClick={() => void reloadKeepingMine()}>{t('patients.conflictReload')}</Button>}
          role="alert"
        />
      )}
      <IdentityCard />
      <ContactCard />
      <HistoryCard />
      <FamilySocialCard />
      <ContactPersonCards />
    </Form>
  )
}
