import { useCallback, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useNavigate } from 'react-router'
import { useCan } from '../../../lib/auth/can'
import { Button } from '../../../light/Button'
import { Card } from '../../../light/Card'
import { PlusIcon } from '../../../light/icons'
import { printPath, type Item, type Prescription } from '../api/types'
import { PrescriptionEditor } from './PrescriptionEditor'
import { PrescriptionList } from './PrescriptionList'
import styles from './PrescriptionEditor.module.css'

type Editing = { rx?: Prescription; items?: Item[]; replaces?: number } | null

/** The prescriptions card of a visit: its prescriptions, and for prescribers a new one, copy last, edit, print, cancel, replace. */
export function VisitPrescriptions({ appointmentId, closed }: { appointmentId: number; closed: boolean }) {
  const { t } = useTranslation()
  const canWrite = useCan('write prescription')
  const navigate = useNavigate()
  const [editing, setEditing] = useState<Editing>(null)
  // Stable, so that opening or closing the editor leaves the list of prescriptions unrendered.
  const owner = useMemo(() => ({ appointmentId }), [appointmentId])
  const edit = useCallback((rx: Prescription) => setEditing({ rx }), [])
  const replace = useCallback((rx: Prescription) => setEditing({ items: rx.items, replaces: rx.id }), [])
  return (
    <Card
      look="panel"
      level={3}
      title={t('rx.title')}
      extra={
        canWrite &&
        !closed &&
        !editing && (
          <Button size="small" icon={<PlusIcon />} onClick={() => setEditing({})}>
            {t('rx.new')}
          </Button>
        )
      }
    >
      {editing && (
        <div className={styles.editor}>
          <PrescriptionEditor
            key={editing.rx?.id ?? `new-${editing.replaces ?? ''}`}
            rx={editing.rx}
            appointmentId={appointmentId}
            initialItems={editing.items}
            replacesId={editing.replaces}
            onSaved={(rx) => (setEditing(null), navigate(printPath(rx)))}
            onCancel={() => setEditing(null)}
          />
        </div>
      )}
      <PrescriptionList owner={owner} canWrite={canWrite} onEdit={edit} onReplace={replace} />
    </Card>
  )
}
