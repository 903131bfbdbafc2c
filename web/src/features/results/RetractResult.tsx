// Retracting a result entered in error (a wrong patient's sample, a value typed on the wrong
// order): one result, or the whole report, always with a reason. Nothing is deleted: the
// result stays in the order's history, struck through, with that reason. A wrong patient's
// sample is a result of another patient: the dialog says to record it on theirs.
import { App, Button } from 'antd'
import { useTranslation } from 'react-i18next'
import { useAskReason } from '../../components/askReason'
import { useRetract, type LabOrder, type LabResult } from './api/results'

/** The button that asks why and retracts `result` of `order` (no result: every current one). */
export function RetractButton({ order, result }: { order: LabOrder; result?: LabResult }) {
  const { t } = useTranslation()
  const { message } = App.useApp()
  const askReason = useAskReason()
  const retract = useRetract(order.id)
  const ask = () =>
    askReason({
      title: result ? t('results.retractTitle', { analyte: result.label || result.analyte }) : t('results.retractAllTitle'),
      label: t('results.retractReason'),
      help: t('results.retractHelp'),
      okText: t('results.retractOk'),
      cancelText: t('results.cancel'),
      danger: true,
      onOk: async (reason) => {
        await retract.mutateAsync({ version: order.version, result_id: result?.id, reason })
        void message.success(t('results.retracted'))
      },
    })
  return (
    <Button
      danger
      size={result ? 'small' : undefined}
      type={result ? 'link' : 'default'}
      onClick={ask}
      loading={retract.isPending}
      data-testid={result ? `retract-${result.analyte}` : 'retract-all'}
    >
      {result ? t('results.retract') : t('results.retractAll')}
    </Button>
  )
}
