import type { Schema } from '../../../lib/schema'

export type Service = Schema<'Service'>
export type FeeSettings = Schema<'FeeSettings'>

/** The price list's categories, in the order screens list them (the server's billing.Categories). */
export const CATEGORIES = ['consultation', 'procedure', 'laboratory', 'imaging', 'medicine', 'certificate', 'other'] as const

/** The appointment types a consultation fee can be set for. */
export const APPOINTMENT_TYPES = ['new', 'follow-up', 'walk-in'] as const

export type Bill = Schema<'Bill'>
export type BillLine = Schema<'BillLine'>
export type Payment = Schema<'Payment'>
export type CashUp = Schema<'CashUp'>
export type BillsReport = Schema<'BillsReport'>
export type Revenue = Schema<'Revenue'>
export type Owing = Schema<'Owing'>

/** Methods of payment, in the order screens list them (the server's billing.Methods). */
export const METHODS = ['cash', 'card', 'bank transfer', 'e-wallet', 'insurance', 'other'] as const

/** What a bill prints. */
export type Document = 'statement' | 'receipt' | 'refund'
