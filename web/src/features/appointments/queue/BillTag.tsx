// An appointment's bill in the queue: charges open, to pay (with the balance), refunded or paid (billState).
import { useTranslation } from 'react-i18next'
import { billState } from '../../../lib/labels'
import { formatMoney } from '../../../lib/money'
import { Tag } from '../../../light/Tag'
import type { BillTag as Tagged } from '../api/billTags'

export function BillTag({ tag }: { tag?: Tagged }) {
  const { t, i18n } = useTranslation()
  if (!tag) return null
  const state = billState(tag)
  return (
    <Tag color={state.color} data-testid={state.label === 'bill.status.toPay' ? 'tag-to-pay' : state.label === 'bill.status.paid' ? 'tag-paid' : undefined}>
      {t(state.label)}
      {tag.balance > 0 && ` ${formatMoney(tag.balance, tag.currency, tag.minor_units, i18n.language)}`}
    </Tag>
  )
}
