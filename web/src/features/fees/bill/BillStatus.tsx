// A bill's state as a light tag, in the bill and in the lists and reports of bills: a file of its
// own, so that a list showing it does not load the bill's whole panel.
import { useTranslation } from 'react-i18next'
import { billState } from '../../../lib/labels'
import { Tag } from '../../../light/Tag'
import type { Bill } from '../api/types'

/** A bill's state as a tag (billState): charges open, to pay, refunded, paid, void. */
export function BillStatus({ bill }: { bill: Pick<Bill, 'status' | 'balance' | 'paid' | 'credited'> }) {
  const { t } = useTranslation()
  const state = billState(bill)
  return <Tag color={state.color}>{t(state.label)}</Tag>
}
