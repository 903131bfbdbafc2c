import type { Schema } from '../../../lib/schema'

export type Service = Schema<'Service'>
export type FeeSettings = Schema<'FeeSettings'>

/** The price list's categories, in the order screens list them (the server's billing.Categories). */
export const CATEGORIES = ['consultation', 'procedure', 'laboratory', 'imaging', 'medicine', 'certificate', 'other'] as const

/** The appointment types a consultation fee can be set for. */
export const APPOINTMENT_TYPES = ['new', 'follow-up', 'walk-in'] as const
