import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { reportsKey } from './reports'

/** What the caller's next cash payment asks of her drawer's float: none, optional (the day's first drawer) or required (a drawer opened after a close). */
export const useFloatAsk = (enabled: boolean) =>
  useQuery({ queryKey: [...reportsKey, 'float-ask'], queryFn: () => get<{ ask: 'none' | 'required' }>('/drawers/float').then((r) => r.ask), enabled })
