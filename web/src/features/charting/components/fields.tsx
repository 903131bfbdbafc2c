import { DeleteOutlined, EditOutlined } from '@ant-design/icons'
import { Button, Form, Popconfirm, Radio, Space } from 'antd'
import { useTranslation } from 'react-i18next'
import { useCan } from '../../../lib/auth/can'

/** Whose a new set or snippet is: the doctor's own, or (with the permission) the whole clinic's. */
export function ScopeField() {
  const { t } = useTranslation()
  const canClinic = useCan('manage clinic sets')
  return (
    <Form.Item name="scope" label={t('orderSets.scope')}>
      <Radio.Group>
        <Radio value="personal">{t('orderSets.personal')}</Radio>
        <Radio value="clinic" disabled={!canClinic}>
          {t('orderSets.clinicWide')}
        </Radio>
      </Radio.Group>
    </Form.Item>
  )
}

/** A kept set's or snippet's row actions: change it, or delete it once confirmed. */
export function RowActions({ name, confirm, onEdit, onDelete }: { name: string; confirm: string; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation()
  return (
    <Space>
      <Button size="small" icon={<EditOutlined aria-hidden />} aria-label={t('chartingAids.edit', { name })} onClick={onEdit} />
      <Popconfirm title={confirm} okText={t('chartingAids.delete')} cancelText={t('appointments.cancelButton')} onConfirm={onDelete}>
        <Button size="small" danger icon={<DeleteOutlined aria-hidden />} aria-label={t('chartingAids.deleteNamed', { name })} />
      </Popconfirm>
    </Space>
  )
}
