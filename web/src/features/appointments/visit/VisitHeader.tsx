import { CheckCircleOutlined } from '@ant-design/icons'
import { Card, Descriptions, Flex, Space, Tag, Typography } from 'antd'
import dayjs from 'dayjs'
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { fullName } from '../../../lib/patient'
import { formatDayTime } from '../../../lib/time'
import { chartOf, type Appointment, type Visit } from '../api/types'
import { StatusTag } from '../StatusTag'
import type { SaveState } from './useAutosave'
import { appointmentTypeLabel } from '../../../lib/labels'

/** The visit's head: the patient, the appointment's status and details, where saving stands (quiet when read-only), the actions. */
export function VisitHeader({ a, visit, state, savedAt, quiet, actions }: { a: Appointment; visit: Visit; state: SaveState; savedAt: string | null; quiet: boolean; actions: ReactNode }) {
  const { t } = useTranslation()
  const signed = visit.status === 'signed'
  const status: Record<SaveState, string> = {
    idle: quiet ? '' : t('visit.stateIdle'),
    pending: t('visit.statePending'),
    saving: t('visit.stateSaving'),
    saved: savedAt ? t('visit.stateSaved', { time: dayjs(savedAt).format('HH:mm:ss') }) : '',
    invalid: t('visit.stateInvalid'),
    conflict: t('visit.stateConflict'),
  }
  return (
    <Card>
      <Flex justify="space-between" wrap gap={12} align="flex-start">
        <Space orientation="vertical" size={4}>
          <Typography.Title level={2} className="page-title" style={{ margin: 0 }}>
            <Link to={chartOf(a)}>{fullName(a.patient)}</Link>{' '}
            <Typography.Text type="secondary" style={{ fontSize: 16 }}>
              {a.patient.mrn}
            </Typography.Text>
          </Typography.Title>
          <Space wrap size={8}>
            <StatusTag status={a.status} />
            {signed ? <Tag color="cyan" icon={<CheckCircleOutlined aria-hidden />}>{t('visit.signedBy', { name: visit.signed_by, time: formatDayTime(visit.signed_at ?? '') })}</Tag> : visit.version > 0 && <Tag>{t('visit.draft')}</Tag>}
            {visit.amendments.length > 0 && <Tag color="orange">{t('visit.amendedTag', { count: visit.amendments.length })}</Tag>}
          </Space>
        </Space>
        <Space wrap>
          {status[state] && (
            <Typography.Text type={state === 'invalid' || state === 'conflict' ? 'danger' : 'secondary'} role="status">
              {status[state]}
            </Typography.Text>
          )}
          {actions}
        </Space>
      </Flex>
      <Descriptions
        size="small"
        style={{ marginTop: 12 }}
        column={{ xs: 1, sm: 2, lg: 4 }}
        items={[
          { key: 'when', label: t('appointments.time'), children: `${formatDayTime(a.starts_at)} · ${t('appointments.minutes', { count: a.duration_minutes })}` },
          { key: 'doctor', label: t('appointments.doctor'), children: a.doctor_name },
          { key: 'type', label: t('appointments.type'), children: t(appointmentTypeLabel[a.type]) },
          { key: 'reason', label: t('appointments.reason'), children: a.reason || '—' },
        ]}
      />
    </Card>
  )
}
