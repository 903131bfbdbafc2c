// Documents and their templates as the API shows them.
import type { Schema } from '../../../lib/schema'

export type DocumentTemplate = Schema<'DocumentTemplate'>
export type DocumentField = Schema<'DocumentField'>
export type DocumentBlock = Schema<'DocumentBlock'>
export type DocumentRun = Schema<'DocumentRun'>
export type ClinicalDocument = Schema<'Document'>

export const KINDS = ['medical_certificate', 'fitness_to_work', 'referral', 'lab_request', 'imaging_request', 'results_report', 'visit_summary', 'immunisation_card', 'custom'] as const
export type Kind = (typeof KINDS)[number]
export const PAPERS = ['a6-portrait', 'a5-portrait', 'a5-landscape', 'a4-portrait', 'a4-landscape'] as const
export const FIELD_TYPES = ['text', 'long_text', 'number', 'date'] as const
export const LANGUAGES = ['en', 'ru', 'zh', 'vi'] as const

/** Where a document prints. */
export const printPath = (d: { id: number }) => `/documents/${d.id}/print`

/** The code as printed: four groups of four. */
export const groupedCode = (code: string) => code.match(/.{1,4}/g)?.join('-') ?? code

/** The first 16 hex digits of the content's SHA-256, in groups of four, as the print carries them. */
export const shortHash = (hash: string) => (hash.slice(0, 16).match(/.{4}/g) ?? []).join(' ')

/** The public address that checks a document: at the clinic's public address, else the one in use. */
export const verifyURL = (code: string, publicURL?: string) => `${publicURL || window.location.origin}/verify/${groupedCode(code)}`
