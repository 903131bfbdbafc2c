import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Button } from '../../light/Button'
import { Card } from '../../light/Card'
import { Confirm } from '../../light/Confirm'
import { Empty } from '../../light/Empty'
import { Spin } from '../../light/Spin'
import { Tag } from '../../light/Tag'
import { toast } from '../../light/Toast'
import { DeleteIcon } from '../../light/icons'
import { DownloadIcon } from './icons'
import list from '../../components/itemList.module.css'
import { UploadButton } from '../../components/UploadButton'
import { formatDayTime } from '../../lib/time'
import { useDeletePatientFile } from './api/deletePatientFile'
import { fileUrl, usePatientFiles } from './api/listPatientFiles'
import type { Patient, PatientFile } from './api/types'
import { useUploadPatientFile } from './api/uploadPatientFile'
import styles from './chart.module.css'

export { UploadButton }

/** The chart's files: a scan, a letter, a lab's report; each downloadable, and deletable by who manages patients unless it came from another record. */
export function Attachments({ patient, canManage }: { patient: Patient; canManage: boolean }) {
  const { t } = useTranslation()
  const files = usePatientFiles(patient.id)
  const upload = useUploadPatientFile(patient.id, 'attachment')
  const remove = useDeletePatientFile(patient.id)
  const [deleting, setDeleting] = useState<PatientFile | null>(null)
  return (
    <Card
      level={3}
      title={t('patients.sections.attachments')}
      extra={
        canManage &&
        !patient.archived && (
          <UploadButton accept="image/*,application/pdf" loading={upload.isPending} onFile={(f) => upload.mutate(f, { onSuccess: () => toast.success(t('patients.uploaded')) })}>
            {t('patients.uploadFile')}
          </UploadButton>
        )
      }
    >
      {files.isLoading ? (
        <div className={list.loading}>
          <Spin />
        </div>
      ) : !files.data?.length ? (
        <Empty>{t('patients.noFiles')}</Empty>
      ) : (
        <ul className={list.list}>
          {files.data.map((f) => (
            <li key={f.id} className={list.item}>
              <div className={list.meta}>
                <div className={list.title}>
                  <a href={fileUrl(patient.id, f.id)} download={f.name}>
                    {f.name}
                  </a>
                  {f.other_patient && (
                    <Tag color="red" className={styles.fileTag} data-testid="file-other-patient">
                      {t('patients.fileOtherPatient')}
                    </Tag>
                  )}
                  {f.refiled && (
                    <Tag color="orange" className={styles.fileTag} data-testid="file-refiled">
                      {t('patients.fileRefiled')}
                    </Tag>
                  )}
                </div>
                <div className={list.description}>{`${f.content_type} · ${(f.size / 1024).toFixed(0)} KB · ${formatDayTime(f.created_at)}`}</div>
              </div>
              <div className={list.actions}>
                <a href={fileUrl(patient.id, f.id)} download={f.name} aria-label={f.name}>
                  <DownloadIcon />
                </a>
                {canManage && !f.other_patient && !f.refiled && (
                  <Button variant="dangerText" icon={<DeleteIcon />} aria-label={`${t('patients.deleteFile')} ${f.name}`} onClick={() => setDeleting(f)} />
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
      <Confirm
        open={deleting !== null}
        title={t('patients.deleteFileConfirm')}
        okText={t('patients.deleteFile')}
        danger
        cancelText={t('patients.cancel')}
        closeLabel={t('app.icons.close')}
        onCancel={() => setDeleting(null)}
        onOk={() => {
          if (deleting) remove.mutate(deleting.id, { onSuccess: () => toast.success(t('patients.fileDeleted')) })
          setDeleting(null)
        }}
      />
    </Card>
  )
}
