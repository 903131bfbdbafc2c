// Places where one feature's screen shows another feature's part (a visit's prescriptions on
// the diagnosis page, a patient's on the chart). Features never import each other: the app
// shell, which composes them, fills the slots (app/slots.tsx); a screen shows <Slot name=… />.
import { createContext, memo, useContext, type ComponentProps, type ComponentType, type ReactNode } from 'react'
import type { Schema } from './schema'

export interface Slots {
  /** A visit's prescriptions: list, write, copy last, print, cancel, replace. */
  visitPrescriptions: ComponentType<{ appointmentId: number; closed: boolean }>
  /** A patient's prescriptions, read-only, on the chart. */
  patientPrescriptions: ComponentType<{ patientId: number }>
  /** A patient's current medicines on the chart: prescribed here, and recorded as taken from elsewhere or over the counter. */
  patientMedicines: ComponentType<{ patientId: number }>
  /** A visit's "still taking?" reconciliation of the medicines recorded as taken. */
  visitMedicines: ComponentType<{ patientId: number; appointmentId: number; closed: boolean }>
  /** A visit's bill: charges, discount, finalising, payments, prints (each by permission). */
  visitBill: ComponentType<{ appointmentId: number; closed: boolean }>
  /** A visit's documents (certificates, referrals, requests): list, issue, print, cancel. */
  visitDocuments: ComponentType<{ patientId: number; appointmentId: number; closed: boolean }>
  /** A patient's documents on the chart, and documents not tied to a visit. */
  patientDocuments: ComponentType<{ patientId: number }>
  /** What the patient can see of their record, why not, when they opened it; a doctor's release or hold. */
  patientRelease: ComponentType<{ patientId: number }>
  /** A patient's bills, on the chart. */
  patientBills: ComponentType<{ patientId: number }>
  /** A visit's lab and imaging orders with their states and flags (revision: the form's last save). */
  visitResults: ComponentType<{ appointmentId: number; revision?: string | null }>
  /** A patient's orders and results, and trends of vitals and tests, on the chart. */
  patientResults: ComponentType<{ patientId: number }>
  /** A child's growth on the WHO standards (under 19 years): chart with SD curves, z-scores, flags, print. */
  patientGrowth: ComponentType<{ patientId: number; patientName: string; birthDate: string; sex: string }>
  /** The dashboard's results figures (to review, critical unacknowledged). */
  dashboardResults: ComponentType<Record<never, never>>
  /**
   * A visit's order sets: the dialog that applies one (open 'apply') and the one that saves
   * the visit as a set (open 'save'). The page opens them (buttons, keyboard) and hands over
   * what is typed (content), a way to save it first and learn the visit's version (prepare),
   * and what to do with the visit after a set was applied (onApplied).
   */
  visitOrderSet: ComponentType<{
    appointmentId: number
    day: string
    open: 'apply' | 'save' | null
    onClose: () => void
    content: () => Schema<'VisitContent'>
    prepare: () => Promise<number>
    onApplied: (visit: Schema<'Visit'>) => void
  }>
  /** Critical results waiting for acknowledgement, above every page. */
  criticalAlerts: ComponentType<Record<never, never>>
}

const SlotContext = createContext<Partial<Slots>>({})

/** Provides the slots' components (the app shell does). */
export const SlotProvider = SlotContext.Provider

type SlotProps<K extends keyof Slots> = { name: K } & ComponentProps<Slots[K]>

/**
 * Shows what fills slot name, with the slot's props; nothing when no one fills it. Memoised on
 * the props: the screen around it re-rendering (a visit's form saving) leaves the slot's part be.
 */
export const Slot = memo(function Slot<K extends keyof Slots>({ name, ...props }: SlotProps<K>) {
  const Filled = useContext(SlotContext)[name] as unknown as ComponentType<Omit<SlotProps<K>, 'name'>> | undefined
  return Filled ? <Filled {...props} /> : null
}) as <K extends keyof Slots>(props: SlotProps<K>) => ReactNode
