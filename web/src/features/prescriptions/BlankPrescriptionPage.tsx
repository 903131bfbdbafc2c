import { Card, Form, Select, Space, Typography } from 'antd'
import { useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { printPath, type Item, type Prescription } from '../../components/prescription/api'
import { PrescriptionEditor } from '../../components/prescription/PrescriptionEditor'
import { PrescriptionList } from '../../components/prescription/PrescriptionList'
import { get } from '../../lib/api'
import { useCan } from '../../lib/auth/can'
import { debounce } from '../../lib/debounce'
import { fullName } from '../../lib/patient'

interface PatientRow {
  id: number
  mrn: string
  first_name: string
  middle_name: string
  last_name: string
  birth_date: string
}

type Editing = { rx?: Prescription; items?: Item[]; replaces?: number; patientId?: number | null }

/** The blank prescription form (spec /forms/blankPrescription): for a chosen patient, or none for a blank pad. */
export default function BlankPrescriptionPage() {
  const { t } = useTranslation()
  const navigate = useNavigate()
  const canWrite = useCan('write prescription')
  const [patientId, setPatientId] = useState<number | null>(null)
  const [options, setOptions] = useState<PatientRow[]>([])
  const [editing, setEditing] = useState<Editing>({})
  // This page stays mounted while others are open: a saved prescription starts a fresh form.
  const [round, setRound] = useState(0)
  const search = useMemo(() => debounce((q: string) => void get<{ data: PatientRow[] }>('/patients', { q, per_page: 10 }).then((r) => setOptions(r.data)), 250), [])

  const editingPatient = editing.rx ? editing.rx.patient_id : patientId
  return (
    <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
      <Card title={editing.rx ? t('rx.editNumber', { id: editing.rx.id }) : t('rx.blankTitle')}>
        <Typography.Paragraph type="secondary">{t('rx.blankHint')}</Typography.Paragraph>
        <Form layout="vertical">
          <Form.Item label={t('rx.patient')}>
            <Select
              showSearch
              allowClear
              aria-label={t('rx.patient')}
              placeholder={t('rx.patientPlaceholder')}
              filterOption={false}
              onSearch={(q) => q.trim().length >= 2 && search(q)}
              value={editingPatient ?? undefined}
              onChange={(v?: number) => (editing.rx ? setEditing({ ...editing, patientId: v ?? null }) : setPatientId(v ?? null))}
              options={[
                ...(editing.rx?.patient && !options.some((o) => o.id === editing.rx?.patient?.id) ? [{ value: editing.rx.patient.id, label: `${editing.rx.patient.name} (${editing.rx.patient.mrn})` }] : []),
                ...options.map((p) => ({ value: p.id, label: `${fullName(p)} (${p.mrn}, ${p.birth_date})` })),
              ]}
              style={{ maxWidth: 480 }}
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
