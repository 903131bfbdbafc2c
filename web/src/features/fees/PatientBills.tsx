import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Card } from '../../light/Card'
import { useBillList } from './api/listBills'
import { BillsTable } from './BillsTable'

/** A patient's bills on the chart, newest first, for whoever may read bills. */
export function PatientBills({ patientId }: { patientId: number }) {
  const { t } = useTranslation()
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(10)
  const { data, isFetching } = useBillList({ patient_id: patientId, page, per_page: perPage })
  if (!data?.total) return null
  return (
    <Card look="panel" level={3} title={t('bills.ofPatient')} data-testid="patient-bills">
      <BillsTable data={data} loading={isFetching} showPatient={false} page={{ current: page, pageSize: perPage, onChange: (p, size) => (setPage(p), setPerPage(size)) }} />
    </Card>
  )
}
