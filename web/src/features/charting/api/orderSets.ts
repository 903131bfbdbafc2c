import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { orderSetsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type OrderSet = Schema<'OrderSet'>

export type SetContent = Schema<'OrderSetContent'>

export type Item = Schema<'PrescriptionItem'>
export type { Finding } from '../../../components/MedicineSafety'

export type Prescription = Schema<'Prescription'>

export const orderSetsQuery = () => queryOptions({ queryKey: [...orderSetsKey], queryFn: async () => (await get<{ data: OrderSet[] }>('/order-sets')).data })

/** The sets the doctor may apply: the clinic's and their own. */
export const useOrderSets = (enabled = true) => useQuery({ ...orderSetsQuery(), enabled })
