import { useTranslation } from 'react-i18next'
import { Dialog } from '../../../light/Dialog'
import { Table, type Column } from '../../../light/Table'
import { SHORTCUTS } from './shortcuts'

interface Row {
  key: string
  keys: string
  what: string
}

/** The visit page's keyboard shortcuts ("?"), and how snippets are typed. */
export function ShortcutsDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation()
  const rows: Row[] = [
    ...SHORTCUTS.map((s) => ({ key: s.keys, keys: s.keys, what: t(`shortcuts.${s.action}`) })),
    { key: 'snippet', keys: t('shortcuts.snippetKeys'), what: t('shortcuts.snippet') },
    { key: 'undo', keys: 'Ctrl+Z', what: t('shortcuts.undoSnippet') },
    { key: 'esc', keys: 'Esc', what: t('shortcuts.close') },
  ]
  const columns: Column<Row>[] = [
    { key: 'keys', header: t('shortcuts.keys'), cell: (r) => <kbd>{r.keys}</kbd>, width: 140 },
    { key: 'what', header: t('shortcuts.action'), cell: (r) => r.what },
  ]
  return (
    <Dialog open title={t('shortcuts.title')} closeLabel={t('app.icons.close')} onClose={onClose}>
      <Table size="small" label={t('shortcuts.title')} columns={columns} rows={rows} rowKey={(r) => r.key} wrap />
    </Dialog>
  )
}
