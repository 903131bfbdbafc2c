import { DeleteOutlined } from '@ant-design/icons'
import { App, Button, Popconfirm, Table, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { useTranslation } from 'react-i18next'
import { ScrollRegion } from '../../../components/ScrollRegion'

interface Props<T> {
  label: string
  rows: T[]
  columns: ColumnsType<T>
  empty: string
  /** Sideways scroll on a phone past this width, inside a region the keyboard can reach. */
  minWidth: number
  nameOf: (row: T) => string
  onRemove: (row: T, done: () => void) => void
}

/** A list of the clinic's additions to the medicine-safety knowledge, each removable after a confirmation. */
export function AdditionsTable<T extends { id: number }>({ label, rows, columns, empty, minWidth, nameOf, onRemove }: Props<T>) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  return (
    <ScrollRegion label={label}>
      <Table<T>
        style={{ minWidth: rows.length > 0 ? minWidth : undefined }}
        rowKey="id"
        size="small"
        dataSource={rows}
        pagination={false}
        locale={{ emptyText: <Typography.Text type="secondary">{empty}</Typography.Text> }}
        columns={[
          ...columns,
          {
            key: 'remove',
            title: t('medicineSafety.remove'),
            render: (_: unknown, row: T) => (
              <Popconfirm title={t('medicineSafety.removeConfirm')} onConfirm={() => onRemove(row, () => void message.success(t('medicineSafety.removed')))}>
                <Button danger size="small" icon={<DeleteOutlined aria-hidden />} aria-label={`${t('medicineSafety.remove')} ${nameOf(row)}`} />
              </Popconfirm>
            ),
          },
        ]}
      />
    </ScrollRegion>
  )
}
