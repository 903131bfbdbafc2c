import { useTranslation } from 'react-i18next'
import type { Money } from './bill/useMoney'

/** A drawer's difference in words as well as sign: short, over, or exact (the cash-up and its print). */
export function Difference({ value, money }: { value: number; money: Money }) {
  const { t } = useTranslation()
  if (value === 0) return <span data-testid="drawer-difference">{t('cashUp.exact')}</span>
  return <strong data-testid="drawer-difference">{value < 0 ? t('cashUp.short', { amount: money.format(-value) }) : t('cashUp.over', { amount: money.format(value) })}</strong>
}
