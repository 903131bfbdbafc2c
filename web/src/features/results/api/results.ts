// The results API: a visit's and a patient's lab orders, one order, recording results, the
// review queue, overdue orders, critical alerts, trends. Every key starts with resultsKey,
// which the live channel refreshes when anyone records, reviews or acknowledges.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { labTestsKey, patientsKey, resultsKey } from '../../../lib/queryKeys'
import type { ResponseBody, Schema } from '../../../lib/schema'

export type LabOrder = Schema<'LabOrder'>
export type LabResult = Schema<'LabResult'>
export type CriticalAlert = Schema<'CriticalAlert'>
export type Trend = ResponseBody<'/api/patients/{id}/trend', 'get'>
export type TestResults = Schema<'TestResults'>
export type Analyte = TestResults['analytes'][number]
export type ResultSettings = Schema<'ResultSettings'>
export type DueHold = Schema<'ReleaseDueHold'>
export type HoldsDue = ResponseBody<'/api/release/holds-due', 'get'>

/** What may have been done about a withdrawn critical value (the server's Followups). */
export const FOLLOWUPS = ['patient_contacted', 'treatment_changed', 'receiver_told', 'repeat_ordered', 'no_action_needed'] as const

/** Why a result is retracted (the server's RetractCategories). */
export const RETRACT_CATEGORIES = ['specimen', 'wrong_patient', 'transcription', 'other'] as const

interface List<T> {
  data: T[]
}

export const visitOrdersQuery = (appointmentId: number) =>
  queryOptions({ queryKey: [...resultsKey, 'visit', appointmentId], queryFn: () => get<List<LabOrder>>(`/appointments/${appointmentId}/orders`).then((l) => l.data) })
export const useVisitOrders = (appointmentId: number, enabled = true) => useQuery({ ...visitOrdersQuery(appointmentId), enabled })

export const usePatientOrders = (patientId: number, enabled = true) =>
  useQuery({ queryKey: [...resultsKey, 'patient', patientId], queryFn: () => get<List<LabOrder>>(`/patients/${patientId}/orders`).then((l) => l.data), enabled })

export const useOrder = (id: number) => useQuery({ queryKey: [...resultsKey, 'order', id], queryFn: () => get<LabOrder>(`/lab-orders/${id}`) })

/** What the order's test reports: analytes, units, answers, ranges (the recording form's). */
export const useTestResults = (code: string | undefined) =>
  useQuery({ queryKey: [...labTestsKey, 'results', code], queryFn: () => get<TestResults>(`/lab-tests/${encodeURIComponent(code!)}`), enabled: !!code, staleTime: 5 * 60_000 })

export const useReviewQueue = (enabled = true) =>
  useQuery({ queryKey: [...resultsKey, 'review'], queryFn: () => get<List<LabOrder>>('/results/review').then((l) => l.data), enabled })

/** How many results wait for the caller's review (the dashboard's figure, without the page). */
export const useReviewCount = (enabled = true) =>
  useQuery({ queryKey: [...resultsKey, 'review', 'count'], queryFn: () => get<{ count: number }>('/results/review/count').then((r) => r.count), enabled })

export const useOverdue = () => useQuery({ queryKey: [...resultsKey, 'overdue'], queryFn: () => get<List<LabOrder>>('/lab-orders/overdue').then((l) => l.data) })

export const useAlerts = (enabled: boolean) =>
  useQuery({
    queryKey: [...resultsKey, 'alerts'],
    queryFn: () => get<List<CriticalAlert>>('/results/alerts', undefined, { silent: true }).then((l) => l.data),
    enabled,
    // The live channel refreshes it at once; the interval is the fallback when push is down.
    refetchInterval: 60_000,
    refetchIntervalInBackground: true,
  })

/** The alerts still to acknowledge, and those withdrawn (their value no longer stands; kept
 * until their follow-up is recorded, to tell whoever heard of the value that it is gone). */
export function splitAlerts(alerts: CriticalAlert[] | undefined): { open: CriticalAlert[]; withdrawn: CriticalAlert[]; misfiled: CriticalAlert[] } {
  const all = alerts ?? []
  return {
    open: all.filter((a) => !a.withdrawn_at && !a.misfiled),
    withdrawn: all.filter((a) => a.withdrawn_at && !a.misfiled),
    // A critical value recorded against the wrong patient whose owner is not yet found: resolved on the misfiled list, never acknowledged.
    misfiled: all.filter((a) => a.misfiled),
  }
}

export const useAlertReport = (from: string, to: string) =>
  useQuery({ queryKey: [...resultsKey, 'report', from, to], queryFn: () => get<List<CriticalAlert>>('/results/alerts/report', { from, to }).then((l) => l.data) })

export const useTrend = (patientId: number, analyte: string | undefined, from: string) =>
  useQuery({
    queryKey: [...resultsKey, 'trend', patientId, analyte, from],
    queryFn: () => get<Trend>(`/patients/${patientId}/trend`, { analyte, from }),
    enabled: !!analyte,
  })

/** What an order's page shows of its patient. */
export interface PatientHead {
  id: number
  mrn: string
  first_name: string
  middle_name: string
  last_name: string
  sex: string
  birth_date: string
}

export const usePatientHead = (id: number, enabled: boolean) =>
  useQuery({ queryKey: [...resultsKey, 'patient-head', id], queryFn: () => get<PatientHead>(`/patients/${id}`), enabled })

/** A patient's vitals by visit, from a day on (the vitals trends). */
export const usePatientVitals = <T,>(id: number, from: string, enabled: boolean) =>
  useQuery({ queryKey: [...resultsKey, 'vitals', id, from], queryFn: () => get<{ data: T[] }>(`/patients/${id}/vitals`, { from }).then((l) => l.data), enabled })

export const useResultSettings = () => useQuery({ queryKey: [...resultsKey, 'settings'], queryFn: () => get<ResultSettings>('/settings/results') })

/** Refreshes everything results show after one's own write (the channel skips one's own echo). */
function useRefresh() {
  const qc = useQueryClient()
  return () => void qc.invalidateQueries({ queryKey: resultsKey })
}

export interface ResultInput {
  analyte: string
  value?: string
  unit?: string
  answer?: string
  text?: string
  lab_low?: string
  lab_high?: string
}

export const useRecord = (id: number) => {
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: { version: number; final: boolean; reason?: string; performer?: string; results: ResultInput[] }) =>
      send<{ order: LabOrder; alerts: number; withdrawn: number }>('put', `/lab-orders/${id}/results`, body, { silent: true }),
    onSuccess: refresh,
  })
}

export const useTransition = (id: number) => {
  const refresh = useRefresh()
  return useMutation({
    mutationFn: ({ action, version, reason }: { action: 'collect' | 'cancel' | 'not-done'; version: number; reason?: string }) =>
      send<LabOrder>('post', `/lab-orders/${id}/${action}`, { version, reason }, { silent: true }),
    onSuccess: refresh,
  })
}

/**
 * Retracts a result entered in error (result_id), or the order's whole report (no result_id), with the reason; with
 * the whole report, the visit's other collected orders chosen (same_draw) too.
 */
export const useRetract = (id: number) => {
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: { version: number; result_id?: number; category: string; reason: string; same_draw?: { id: number; version: number }[] }) =>
      send<LabOrder>('post', `/lab-orders/${id}/retract`, body, { silent: true }),
    onSuccess: refresh,
  })
}

/** Attaches the lab's own report (PDF or image) to an order. */
export const useAttachReport = (id: number) => {
  const refresh = useRefresh()
  return useMutation({
    mutationFn: ({ file, version }: { file: File; version: number }) => {
      const fd = new FormData()
      fd.append('file', file, file.name)
      return send<LabOrder>('post', `/lab-orders/${id}/report?version=${version}`, fd)
    },
    onSuccess: refresh,
  })
}

export const useReview = () => {
  const refresh = useRefresh()
  return useMutation({
    mutationFn: (body: { orders: { id: number; version: number }[]; comment: string; followup?: string }) =>
      send<{ reviewed: number }>('post', '/results/review', body, { silent: true }),
    onSuccess: refresh,
  })
}

/** The holds from the portal whose review-by day has come, and whether the clinic's rule
 * releases a result once reviewed (ADR 45): the review queue shows both. Silent: a screen
 * without it still reviews (and then warns, as if the rule released). */
export const useHoldsDue = () =>
  useQuery({ queryKey: [...resultsKey, 'holds-due'], queryFn: () => get<HoldsDue>('/release/holds-due', undefined, { silent: true }) })

/** Holds an order's result for discussion (the patient reads only that their doctor will discuss
 * it; due for review by the server's default day), then marks it reviewed: the hold comes first,
 * so the rule never releases it in between. */
export const useReviewAndHold = () => {
  const qc = useQueryClient()
  return useMutation({
    mutationFn: async ({ order, reason, comment }: { order: LabOrder; reason: string; comment: string }) => {
      await send('post', `/release/results/${order.id}`, { action: 'hold', version: 0, hold_kind: 'discuss', category: 'in_person', reason }, { silent: true })
      return send<{ reviewed: number }>('post', '/results/review', { orders: [{ id: order.id, version: order.version }], comment }, { silent: true })
    },
    onSettled: (_, __, { order }) => {
      void qc.invalidateQueries({ queryKey: resultsKey })
      void qc.invalidateQueries({ queryKey: [...patientsKey, order.patient_id] })
    },
  })
}

export const useAcknowledge = () => {
  const refresh = useRefresh()
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number } & ({ result_id: number; contact: string; action: string; received_by: string; read_back: string } | { followup: string; note: string })) =>
      send<void>('post', `/results/alerts/${id}/acknowledge`, body, { silent: true }),
    onSuccess: refresh,
  })
}

export const useSaveResultSettings = () => {
  const refresh = useRefresh()
  return useMutation({ mutationFn: (s: ResultSettings) => send<ResultSettings>('put', '/settings/results', s, { silent: true }), onSuccess: refresh })
}
