import { Card, Form, Space, Typography } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { printPath, type Item, type Prescription } from './api/types'
import { PrescriptionEditor } from './components/PrescriptionEditor'
import { PrescriptionList } from './components/PrescriptionList'
import { PatientSelect } from '../../components/PatientSelect'
import { useCan } from '../../lib/auth/can'

type Editing = { rx?: Prescription; items?: Item[]; replaces?: number; patientId?: number | null }

/** The blank prescription form (spec /forms/blankPrescription): for a chosen patient, or none for a blank pad. */
export default function BlankPrescriptionPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const canWrite = useCan('write prescription')
  const [patientId, setPatientId] = useState<number | null>(null)
  const [editing, setEditing] = useState<Editing>({})
  // This page stays mounted while others are open: a saved prescription starts a fresh form.
  const [round, setRound] = useState(0)

  const editingPatient = editing.rx ? editing.rx.patient_id : patientId
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card title={editing.rx ? t('rx.editNumber', { id: editing.rx.id }) : t('rx.blankTitle')}>
        <Typography.Paragraph type="secondary">{t('rx.blankHint')}</Typography.Paragraph>
        <Form layout="vertical">
          <Form.Item label={t('rx.patient')}>
            <PatientSelect
              ariaLabel={t('rx.patient')}
              placeholder={t('rx.patientPlaceholder')}
              value={editingPatient}
              onChange={(v) => (editing.rx ? setEditing({ ...editing, patientId: v ?? null }) : setPatientId(v ?? null))}
              style={{ maxWidth: 480, width: '100%' }}
            />
          </Form.Item>
        </Form>
        {canWrite && (
          <PrescriptionEditor
            key={editing.rx?.id ?? `new-${editing.replaces ?? ''}-${round}`}
            rx={editing.rx}
            patientId={editing.rx ? (editing.patientId !== undefined ? editing.patientId : editing.rx.patient_id) : patientId}
            initialItems={editing.items}
            replacesId={editing.replaces}
            onSaved={(rx) => {
              setEditing({})
              setPatientId(null)
              setRound((r) => r + 1)
              navigate(printPath(rx))
            }}
            onCancel={editing.rx || editing.replaces ? () => setEditing({}) : undefined}
          />
        )}
      </Card>
      <Card title={t('rx.recentBlank')}>
        <PrescriptionList
          owner={{ blank: true }}
          canWrite={canWrite}
          showPatient
          onEdit={(rx) => setEditing({ rx })}
          onReplace={(rx) => (setPatientId(rx.patient_id), setEditing({ items: rx.items, replaces: rx.id }))}
        />
      </Card>
    </Space>
  )
}
