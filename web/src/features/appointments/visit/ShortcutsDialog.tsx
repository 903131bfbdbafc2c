import { Modal, Table } from 'antd'
import { useTranslation } from 'react-i18next'
import { SHORTCUTS } from './shortcuts'

/** The visit page's keyboard shortcuts ("?"), and how snippets are typed. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const rows = [
    ...SHORTCUTS.map((s) => ({ key: s.keys, keys: s.keys, what: t(`shortcuts.${s.action}`) })),
    { key: 'snippet', keys: t('shortcuts.snippetKeys'), what: t('shortcuts.snippet') },
    { key: 'undo', keys: 'Ctrl+Z', what: t('shortcuts.undoSnippet') },
    { key: 'esc', keys: 'Esc', what: t('shortcuts.close') },
  ]
  return (
    <Modal open title={t('shortcuts.title')} footer={null} onCancel={onClose} destroyOnHidden>
      <Table
        size="small"
        pagination={false}
        dataSource={rows}
        columns={[
          { title: t('shortcuts.keys'), dataIndex: 'keys', render: (k: string) => <kbd>{k}</kbd>, width: 140 },
          { title: t('shortcuts.action'), dataIndex: 'what' },
        ]}
      />
    </Modal>
  )
}
