import { Tag } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatMoney } from '../../../lib/money'
import type { BillTag as Tagged } from '../api/billTags'

/** An appointment's bill in the queue: charges open, to pay (with the balance), or paid. */
export function BillTag({ tag }: { tag?: Tagged }) {
  const { t, i18n } = useTranslation()
  if (!tag) return null
  if (tag.status === 'draft') return <Tag color="blue">{t('bill.status.draft')}</Tag>
  if (tag.balance > 0)
    return (
      <Tag color="orange" data-testid="tag-to-pay">
        {t('bill.status.toPay')} {formatMoney(tag.balance, tag.currency, tag.minor_units, i18n.language)}
      </Tag>
    )
  return (
    <Tag color="green" data-testid="tag-paid">
      {t('bill.status.paid')}
    </Tag>
  )
}
