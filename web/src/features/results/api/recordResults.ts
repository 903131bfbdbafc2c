import { send } from '../../../lib/api'
import { useResultsMutation } from './mutation'
import type { LabOrder } from './types'

export interface ResultInput {
  analyte: string
  value?: string
  unit?: string
  answer?: string
  text?: string
  lab_low?: string
  lab_high?: string
}

/** Records an order's results (final or not; a correction gives its reason). */
export const useRecord = (id: number) =>
  useResultsMutation((body: { version: number; final: boolean; reason?: string; performer?: string; results: ResultInput[] }) =>
    send<{ order: LabOrder; alerts: number; withdrawn: number }>('put', `/lab-orders/${id}/results`, body, { silent: true }),
  )
