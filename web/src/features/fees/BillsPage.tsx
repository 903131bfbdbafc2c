import { Card, Flex, Input, Radio } from 'antd'
import dayjs from 'dayjs'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useDebounced } from '../../lib/debounce'
import { useBillList, type BillFilter } from './api/listBills'
import { BillsTable } from './BillsTable'
import { DateRangeInput } from '../../components/DateInput'

const DAY = 'YYYY-MM-DD'
const STATUSES = ['', 'draft', 'unpaid', 'paid', 'void'] as const

/** /fees/bills — every bill the desk may need, not only today's queue: by number, patient, status and date. */
export default function BillsPage() {
  const { t } = useTranslation()
  const [text, setText] = useState('')
  const q = useDebounced(text.trim(), 300)
  const [status, setStatus] = useState<BillFilter['status']>('')
  const [range, setRange] = useState<[string, string] | undefined>()
  const [page, setPage] = useState(1)
  const [perPage, setPerPage] = useState(20)
  const { data, isFetching } = useBillList({ q, status, from: range?.[0], to: range?.[1], page, per_page: perPage })
  return (
    <Card title={t('bills.title')}>
      <Flex gap={8} wrap align="center" style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          value={text}
          onChange={(e) => (setText(e.target.value), setPage(1))}
          placeholder={t('bills.searchPlaceholder')}
          aria-label={t('bills.search')}
          style={{ width: 320, maxWidth: '100%' }}
          maxLength={100}
        />
        <DateRangeInput
          value={range ? [dayjs(range[0]), dayjs(range[1])] : null}
          onChange={(v) => (setRange(v?.[0] && v[1] ? [v[0].format(DAY), v[1].format(DAY)] : undefined), setPage(1))}
          aria-label={t('reports.range')}
        />
      </Flex>
      <Radio.Group
        optionType="button"
        value={status}
        onChange={(e) => (setStatus(e.target.value as BillFilter['status']), setPage(1))}
        aria-label={t('bills.status')}
        style={{ marginBottom: 12 }}
        options={STATUSES.map((s) => ({ value: s, label: t(`bills.statuses.${s || 'all'}`) }))}
      />
      <BillsTable data={data} loading={isFetching} page={{ current: page, pageSize: perPage, onChange: (p, size) => (setPage(p), setPerPage(size)) }} />
    </Card>
  )
}
