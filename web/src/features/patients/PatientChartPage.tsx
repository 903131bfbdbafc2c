import { CalendarOutlined, DeleteOutlined, DownloadOutlined, EditOutlined, InboxOutlined, UploadOutlined, UserOutlined, WalletOutlined } from '@ant-design/icons'
import { Alert, App, Avatar, Button, Card, Col, Descriptions, Empty, Flex, List, Popconfirm, Result, Row, Space, Tag, Typography, Upload } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate, useParams } from 'react-router'
import { VisitHistory } from '../../components/VisitHistory'
import { useCan } from '../../lib/auth/can'
import { Slot } from '../../lib/slots'
import { useArchivePatient } from './api/archivePatient'
import { openWalkInBill } from './api/openWalkInBill'
import { usePatient } from './api/getPatient'
import { useViewSubject } from '../../lib/viewSubject'
import { PatientBanner } from '../../components/PatientBanner'
import { useAskReason } from '../../components/askReason'
import { useDeletePatientFile } from './api/deletePatientFile'
import { fileUrl, photoUrl, usePatientFiles } from './api/listPatientFiles'
import { useUploadPatientFile } from './api/uploadPatientFile'
import { fullName, type Patient } from './api/types'
import { ageInYears } from './age'
import { LaunchApps } from './LaunchApps'
import { formatDay, formatDayTime } from '../../lib/time'
import { chronicLabel, civilStatusLabel, familyLabel, labelOf, sexLabel, socialLabel } from '../../lib/labels'
import { PageSkeleton } from '../../components/PageSkeleton'
import { OtherIdentifiers } from './OtherIdentifiers'
import { PortalAccess } from './PortalAccess'
import { ListMeta } from '../../components/ListMeta'

function Attachments({ patient, canManage }: { patient: Patient; canManage: boolean }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const files = usePatientFiles(patient.id)
  const upload = useUploadPatientFile(patient.id, 'attachment')
  const remove = useDeletePatientFile(patient.id)
  return (
    <Card
      title={t('patients.sections.attachments')}
      extra={
        canManage &&
        !patient.archived && (
          <Upload
            showUploadList={false}
            accept="image/*,application/pdf"
            customRequest={({ file }) => upload.mutate(file as File, { onSuccess: () => void message.success(t('patients.uploaded')) })}
          >
            <Button icon={<UploadOutlined aria-hidden />} loading={upload.isPending}>
              {t('patients.uploadFile')}
            </Button>
          </Upload>
        )
      }
    >
      <List
        loading={files.isLoading}
        dataSource={files.data}
        locale={{ emptyText: <Empty image={<InboxOutlined style={{ fontSize: 32 }} aria-hidden />} description={t('patients.noFiles')} /> }}
        renderItem={(f) => (
          <List.Item
            actions={[
              <a key="get" href={fileUrl(patient.id, f.id)} download={f.name} aria-label={f.name}>
                <DownloadOutlined aria-hidden />
              </a>,
              canManage && !f.other_patient && !f.refiled && (
                <Popconfirm key="del" title={t('patients.deleteFileConfirm')} onConfirm={() => remove.mutate(f.id, { onSuccess: () => void message.success(t('patients.fileDeleted')) })}>
                  <Button type="text" danger icon={<DeleteOutlined aria-hidden />} aria-label={`${t('patients.deleteFile')} ${f.name}`} />
                </Popconfirm>
              ),
            ]}
          >
            <ListMeta
              title={
                <>
                  <a href={fileUrl(patient.id, f.id)} download={f.name}>
                    {f.name}
                  </a>
                  {f.other_patient && (
                    <Tag color="red" style={{ marginInlineStart: 8 }} data-testid="file-other-patient">
                      {t('patients.fileOtherPatient')}
                    </Tag>
                  )}
                  {f.refiled && (
                    <Tag color="orange" style={{ marginInlineStart: 8 }} data-testid="file-refiled">
                      {t('patients.fileRefiled')}
                    </Tag>
                  )}
                </>
              }
              description={`${f.content_type} · ${(f.size / 1024).toFixed(0)} KB · ${formatDayTime(f.created_at)}`}
            />
          </List.Item>
        )}
      />
    </Card>
  )
}

export default function PatientChartPage() {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const askReason = useAskReason()
  const navigate = useNavigate()
  const { id, pid } = useParams()
  const patient = usePatient(Number(id))
  useViewSubject(patient.data && patient.data.mrn === pid ? fullName(patient.data) : undefined)
  const canManage = useCan('manage patient')
  const canBook = useCan('manage appointment')
  const canCharge = useCan('record charges')
  const canPrescribe = useCan('write prescription')
  const canDiagnose = useCan('write diagnosis')
  const canVitals = useCan('record vitals')
  const canReadRx = canPrescribe || canDiagnose || canVitals
  const canReadBills = [canCharge, useCan('record payment'), useCan('view financial reports')].some(Boolean)
  const canManagePortal = useCan('manage portal')
  const photo = useUploadPatientFile(Number(id), 'photo')
  const archive = useArchivePatient(Number(id))
  const [photoBust, setPhotoBust] = useState(0)

  if (patient.isError) return <Result status="404" subTitle={t('patients.notFound')} />
  if (!patient.data) return <PageSkeleton banner />
  const p = patient.data
  // The patient number in the address must be this patient's: a mismatched pair is a 404.
  if (p.mrn !== pid) return <Result status="404" subTitle={t('patients.notFound')} />

  const h = p.history
  const list = (labels: Record<string, string>, values: string[], other: string) => [...values.map((v) => t(labelOf(labels, v) ?? v)), other].filter(Boolean).join(', ') || '—'
  const askArchive = () =>
    askReason({
      title: t('patients.archiveTitle'),
      label: t('patients.archiveReason'),
      okText: t('patients.archive'),
      danger: true,
      cancelText: t('patients.cancel'),
      onOk: (reason) => archive.mutateAsync(reason).then(() => void message.success(t('patients.archived'))),
    })

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }}>
      {p.archived && <Alert type="warning" showIcon title={t('patients.archivedBanner', { reason: p.archive_reason })} />}
      <PatientBanner patient={{ ...p, ...h }} />
      <Card>
        <Flex gap={20} wrap align="flex-start">
          <Space orientation="vertical" align="center">
            <Avatar
              shape="square"
              size={112}
              src={p.has_photo ? photoUrl(p.id, photoBust) : undefined}
              icon={<UserOutlined aria-hidden />}
              alt={t('patients.photoOf', { name: fullName(p) })}
            />
            {canManage && !p.archived && (
              <Upload
                showUploadList={false}
                accept="image/jpeg,image/png,image/webp"
                customRequest={({ file }) =>
                  photo.mutate(file as File, {
                    onSuccess: () => {
                      setPhotoBust(Date.now())
                      void message.success(t('patients.uploaded'))
                    },
                  })
                }
              >
                <Button size="small" icon={<UploadOutlined aria-hidden />} loading={photo.isPending}>
                  {t('patients.uploadPhoto')}
                </Button>
              </Upload>
            )}
          </Space>
          <div style={{ flex: 1, minWidth: 240 }}>
            <Flex justify="space-between" wrap gap={8}>
              <Typography.Title level={2} className="page-title" style={{ margin: 0 }}>
                {fullName(p)} {p.archived && <Tag>{t('patients.archivedTag')}</Tag>}
              </Typography.Title>
              <Space wrap>
                <LaunchApps patientId={p.id} />
                {canManage && !p.archived && (
                  <Button icon={<EditOutlined aria-hidden />} onClick={() => navigate(`/masterfile/patient_form/${p.id}`)}>
                    {t('patients.edit')}
                  </Button>
                )}
                {canManage &&
                  (p.archived ? (
                    <Button onClick={() => archive.mutate(null, { onSuccess: () => void message.success(t('patients.restored')) })}>{t('patients.restore')}</Button>
                  ) : (
                    <Button danger onClick={askArchive}>
                      {t('patients.archive')}
                    </Button>
                  ))}
              </Space>
            </Flex>
            <Descriptions
              size="small"
              column={{ xs: 1, sm: 2, lg: 3 }}
              style={{ marginTop: 12 }}
              items={[
                { key: 'mrn', label: t('patients.mrn'), children: p.mrn },
                { key: 'sex', label: t('patients.fields.sex'), children: t(sexLabel[p.sex]) },
                { key: 'birth', label: t('patients.fields.birth_date'), children: `${formatDay(p.birth_date)}${p.birth_date_estimated ? ' ~' : ''} (${t('patients.ageYears', { count: ageInYears(p.birth_date) })})` },
                { key: 'phone', label: t('patients.fields.phone'), children: p.phone || '—' },
                { key: 'blood', label: t('patients.fields.blood_type'), children: p.blood_type || '—' },
                { key: 'civil', label: t('patients.fields.civil_status'), children: p.civil_status ? t(civilStatusLabel[p.civil_status]) : '—' },
                { key: 'email', label: t('patients.fields.email'), children: p.email || '—' },
                { key: 'address', label: t('patients.fields.address'), children: p.address || '—' },
                { key: 'created', label: t('patients.createdAt'), children: formatDay(p.created_at) },
              ]}
            />
          </div>
        </Flex>
      </Card>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card title={t('patients.sections.history')} style={{ height: '100%' }}>
            <Descriptions
              size="small"
              column={1}
              items={[
                { key: 'chronic', label: t('patients.fields.chronic'), children: list(chronicLabel, h.chronic, h.chronic_other) },
                { key: 'adm', label: t('patients.fields.past_admissions'), children: h.past_admissions || '—' },
                { key: 'surg', label: t('patients.fields.past_surgeries'), children: h.past_surgeries || '—' },
                { key: 'family', label: t('patients.fields.family'), children: list(familyLabel, h.family, h.family_other) },
                { key: 'smoking', label: t('patients.fields.smoking'), children: h.smoking ? t(socialLabel[h.smoking]) : '—' },
                { key: 'alcohol', label: t('patients.fields.alcohol'), children: h.alcohol ? t(socialLabel[h.alcohol]) : '—' },
                { key: 'vacc', label: t('patients.fields.vaccinations'), children: h.vaccinations || '—' },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            <OtherIdentifiers identifiers={p.received?.identifiers ?? []} />
            <Card title={t('patients.sections.emergency')}>
              <Descriptions
                size="small"
                column={1}
                items={[
                  { key: 'n', label: t('patients.fields.contact_name'), children: p.emergency_contact.name || '—' },
                  { key: 'r', label: t('patients.fields.contact_relation'), children: p.emergency_contact.relation || '—' },
                  { key: 'p', label: t('patients.fields.contact_phone'), children: p.emergency_contact.phone || '—' },
                ]}
              />
            </Card>
            <Card
              title={t('patients.sections.visits')}
              extra={
                !p.archived && (
                  <Space size={4} wrap>
                    {canBook && (
                      <Button size="small" icon={<CalendarOutlined aria-hidden />} onClick={() => navigate(`/appointments/appointments?book=${p.id}`)}>
                        {t('patients.bookVisit')}
                      </Button>
                    )}
                    {/* Charges without a visit (a certificate, a dressing at the desk): a bill of its own. */}
                    {canCharge && (
                      <Button size="small" icon={<WalletOutlined aria-hidden />} onClick={() => void openWalkInBill(p.id).then((b) => navigate(`/bills/${b.id}`), () => undefined /* the app's error toast has said why */)}>
                        {t('patients.walkInBill')}
                      </Button>
                    )}
                  </Space>
                )
              }
            >
              <VisitHistory patientId={p.id} />
            </Card>
          </Space>
        </Col>
      </Row>
      {p.remarks && (
        <Card title={t('patients.sections.remarks')}>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{p.remarks}</Typography.Paragraph>
        </Card>
      )}
      {canReadRx && <Slot name="patientMedicines" patientId={p.id} />}
      {canReadRx && (
        <Card title={t('rx.title')}>
          <Slot name="patientPrescriptions" patientId={p.id} />
        </Card>
      )}
      <Slot name="patientResults" patientId={p.id} />
      <Slot name="patientDocuments" patientId={p.id} />
      <Slot name="patientRelease" patientId={p.id} />
      {canReadBills && <Slot name="patientBills" patientId={p.id} />}
      {canManagePortal && <PortalAccess patientId={p.id} archived={p.archived} name={fullName(p)} />}
      <Attachments patient={p} canManage={canManage} />
    </Space>
  )
}
