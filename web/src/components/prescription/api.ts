// Prescriptions as the API shows them, and the calls that read and write them. Shared by
// the diagnosis form, the blank prescription form, the patient's chart and the print page.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../lib/api'
import type { Clinic } from '../../lib/clinic'
import type { Allergy } from '../PatientBanner'

export type { Allergy }

export interface Item {
  medicine_id: number | null
  medicine: string
  dose: string
  route: string
  frequency: string
  duration: string
  quantity: string | null
  unit: string
  refills: number
  instructions: string
  /** Why the line is given despite its safety findings; stored with it, printed nowhere. */
  override_reason?: string
  /** The keys of the findings the reason acknowledges. */
  overrides?: string[]
}


/** Something about a line the prescriber must acknowledge with a reason (the server decides). */
export interface Finding {
  line: number
  key: string
  kind: 'allergy' | 'allergy_class' | 'cross_sensitivity' | 'duplicate' | 'duplicate_recent' | 'allergies_unrecorded'
  blocking: boolean
  allergy?: string
  severity?: string
  reaction?: string
  substance?: string
  class?: string
  other_line?: number
  other_prescription_id?: number
  other_medicine?: string
  other_date?: string
  overridden: boolean
}

export interface CheckResult {
  patient_id: number | null
  allergies: Allergy[]
  allergy_status?: string
  findings: Finding[]
}

/** Whose lines are checked: a saved prescription's, a visit's, or a chosen patient's (none: a blank pad). */
export interface CheckOwner {
  prescriptionId?: number
  appointmentId?: number
  patientId?: number | null
}

/** The server's safety check of lines being written; re-run as the medicines change. */
export function usePrescriptionCheck(owner: CheckOwner, items: Pick<Item, 'medicine_id' | 'medicine'>[]) {
  const lines = items.map((it) => ({ medicine_id: it?.medicine_id ?? null, medicine: it?.medicine ?? '' }))
  return useQuery({
    queryKey: ['prescription-check', owner, lines],
    queryFn: () =>
      send<CheckResult>(
        'post',
        '/prescriptions/check',
        { prescription_id: owner.prescriptionId ?? null, appointment_id: owner.appointmentId ?? null, patient_id: owner.patientId ?? null, items: lines },
        { silent: true },
      ),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  })
}

export interface Licence {
  number: string
  issuer: string
  valid_from: string
  valid_until: string
}

export interface Prescription {
  id: number
  kind: 'visit' | 'blank'
  appointment_id: number | null
  patient_id: number | null
  patient: {
    id: number
    mrn: string
    name: string
    first_name: string
    middle_name: string
    last_name: string
    sex: string
    birth_date: string
    age: number
    address: string
    allergies: Allergy[]
    allergy_status: string
  } | null
  status: 'draft' | 'issued' | 'ordered' | 'dispensed' | 'cancelled'
  items: Item[]
  notes: string
  prescriber: { id: number; name: string; specialisations: string[]; licences: Licence[] } | null
  has_signature: boolean
  signature_url: string
  warnings: ('no_signature' | 'no_licence' | 'licence_expired')[]
  /** A visit's diagnoses (code and label), which the print carries. */
  diagnoses: { code: string; text: string; primary: boolean; label?: string }[]
  /** An unprinted prescription's safety findings, as the server checks them now. */
  safety: Finding[]
  issued_at: string | null
  cancel_reason: string
  cancelled_at: string | null
  replaces_id: number | null
  created_at: string
  created_by: string
  version: number
}

export interface Medicine {
  id: number
  generic_name: string
  brand: string
  strength: string
  form: string
  unit: string
  ingredients: string
  atc: string
  name_ru: string
  name_zh: string
  name_vi: string
  active: boolean
  version: number
  /** The name, strength and form in the user's language, as a line names it. */
  label: string
  /** The unit in the user's language, as a line counts it. */
  unit_label: string
}

/** The routes a line may name (the server's list). */
export const ROUTES = ['oral', 'sublingual', 'topical', 'inhaled', 'nasal', 'ophthalmic', 'otic', 'rectal', 'vaginal', 'subcutaneous', 'intramuscular', 'intravenous_bolus', 'intravenous_infusion', 'transdermal'] as const

export const editable = (rx: Prescription) => rx.status === 'draft' || rx.status === 'ordered'

export const emptyItem = (): Item => ({
  medicine_id: null,
  medicine: '',
  dose: '',
  route: 'oral',
  frequency: '',
  duration: '',
  quantity: null,
  unit: '',
  refills: 0,
  instructions: '',
  override_reason: '',
  overrides: [],
})

export const prescriptionsKey = ['prescriptions'] as const

export type Owner = { appointmentId: number } | { patientId: number } | { blank: true }

const listPath = (o: Owner) => ('appointmentId' in o ? `/appointments/${o.appointmentId}/prescriptions` : 'patientId' in o ? `/patients/${o.patientId}/prescriptions` : '/prescriptions')

export function usePrescriptions(owner: Owner, enabled = true) {
  return useQuery({
    queryKey: [...prescriptionsKey, owner],
    queryFn: async () => (await get<{ data: Prescription[] }>(listPath(owner))).data,
    enabled,
  })
}

export function usePrescription(id: number) {
  return useQuery({ queryKey: [...prescriptionsKey, 'one', id], queryFn: () => get<Prescription>(`/prescriptions/${id}`), refetchOnWindowFocus: false })
}

export interface Draft {
  id?: number
  appointmentId?: number
  patient_id?: number | null
  items: Item[]
  notes: string
  replaces_id?: number | null
  version?: number
}

/** Creates or changes a prescription; the form shows the errors itself. */
export function useSavePrescription() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (d: Draft) => {
      const body = { items: d.items, notes: d.notes, patient_id: d.patient_id ?? null, replaces_id: d.replaces_id ?? null, version: d.version ?? 0 }
      if (d.id) return send<Prescription>('put', `/prescriptions/${d.id}`, body, { silent: true })
      if (d.appointmentId) return send<Prescription>('post', `/appointments/${d.appointmentId}/prescriptions`, body, { silent: true })
      return send<Prescription>('post', '/prescriptions', body, { silent: true })
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: prescriptionsKey }),
  })
}

export function useCancelPrescription() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: ({ rx, reason }: { rx: Prescription; reason: string }) => send<Prescription>('post', `/prescriptions/${rx.id}/cancel`, { reason, version: rx.version }, { silent: true }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: prescriptionsKey }),
  })
}

/** Prints: issues an unprinted prescription, or records a reprint. */
export function usePrintPrescription() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: (rx: Prescription) => send<Prescription & { clinic: Clinic }>('post', `/prescriptions/${rx.id}/print`, { version: rx.version }),
    onSuccess: (rx) => {
      queryClient.setQueryData([...prescriptionsKey, 'one', rx.id], rx)
      void queryClient.invalidateQueries({ queryKey: prescriptionsKey })
    },
  })
}

export const searchMedicines = async (q: string) => (await get<{ data: Medicine[] }>('/medicines', { q, per_page: 20 })).data

export const previousPrescription = (appointmentId: number) => get<Prescription>(`/appointments/${appointmentId}/previous-prescription`, undefined, { silent: true })

export const printPath = (rx: { id: number }) => `/prescriptions/print/${rx.id}`
