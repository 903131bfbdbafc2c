import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useCan } from '../../../lib/auth/can'
import { useChartValues, useSnippets } from '../../../lib/charting'
import { formatDay } from '../../../lib/time'
import { CopyIcon } from '../../../light/icons'
import { Tag } from '../../../light/Tag'
import { useLabTests } from '../api/listLabTests'
import type { Appointment, LabTest, Visit, VisitContent } from '../api/types'
import { contentOf } from './content'
import type { Copyable } from './CopyForwardDialog'
import { createDraft, type Draft } from './draft'
import type { TextAids } from './textAids'
import { useVisitSaving, type VisitSaving } from './useVisitSaving'
import { visitMode, type VisitMode } from './visitMode'

/** The dialogs the visit's tools open. */
export type VisitDialog = 'apply' | 'save' | 'copy' | 'help'

/** What every section of the visit's form reads: the visit, what its user may do now, and how it saves. */
export interface VisitFormState {
  a: Appointment
  visit: Visit
  /** The draft typed, which each field reads and writes by its path (draft.ts). */
  draft: Draft<VisitContent>
  /** The visit as read, which the form starts from. */
  initial: VisitContent
  mode: VisitMode
  /** The sections are read-only (the vitals are written in their own mode). */
  ro: boolean
  signed: boolean
  canDiagnose: boolean
  /** A signed visit this doctor may amend and is not amending yet. */
  canAmend: boolean
  startAmending: () => void
  /** Gives up the amendment: the form shows what the server has again. */
  discard: () => void
  /** Asks the amendment's reason and saves it. */
  amend: () => void
  aids: TextAids
  /** The codes' labels the diagnosis rows show: the visit's as read, those chosen here, and those a set, a copy or a merge brought in. */
  labels: Record<string, string>
  /** A code was chosen with this label. */
  labelled: (code: string, label: string) => void
  /** The orderable tests, for those who order them. */
  labTests: LabTest[] | undefined
  saving: Omit<VisitSaving, 'amend' | 'discard' | 'replaced'>
  /** The user changed a field of this top-level part ("vitals", "plan"). */
  valuesChanged: (key: string) => void
  /** A set was applied: the form shows the visit as the server has it now. */
  applied: (v: Visit) => void
  /** Parts of the previous visit were copied in: marked until changed, saved soon. */
  copiedIn: (next: VisitContent, parts: Copyable[], day: string, from: Visit) => void
  dialog: VisitDialog | null
  setDialog: (d: VisitDialog | null) => void
}

const VisitFormContext = createContext<VisitFormState | null>(null)

/** The visit's draft alone: the same for the form's life, so the memoised sections read it without rendering with the form. */
export const VisitDraftContext = createContext<Draft<VisitContent> | null>(null)

/** The draft of the visit's form, for a field inside VisitFormProvider (or a test's VisitDraftContext). */
export function useVisitDraft(): Draft<VisitContent> {
  const d = useContext(VisitDraftContext)
  if (!d) throw new Error('useVisitDraft outside VisitFormProvider')
  return d
}

/** The visit's form, for a section inside VisitFormProvider. */
export function useVisitForm(): VisitFormState {
  const v = useContext(VisitFormContext)
  if (!v) throw new Error('useVisitForm outside VisitFormProvider')
  return v
}

/** The labels of diagnoses' codes. */
const labelsOf = (diagnoses: Visit['diagnoses']) => Object.fromEntries(diagnoses.filter((d) => d.code).map((d) => [d.code, d.label ?? '']))

/**
 * The one owner of a visit's form: the draft typed (draft.ts), its saving and versions
 * (useVisitSaving), what its user may do now (visitMode), and the text aids, labels and
 * copied-forward marks the sections share. Keyed by the visit: another visit is a new form.
 */
export function VisitFormProvider({ a, visit, children }: { a: Appointment; visit: Visit; children: ReactNode }) {
  const { t } = useTranslation()
  const canDiagnose = useCan('write diagnosis')
  const canVitals = useCan('record vitals')
  const labTests = useLabTests(canDiagnose)
  const [initial] = useState(() => contentOf(visit))
  const [draft] = useState(() => createDraft(initial))
  const [amending, setAmending] = useState(false)
  const [labels, setLabels] = useState<Record<string, string>>(() => labelsOf(visit.diagnoses))
  const [dialog, setDialog] = useState<VisitDialog | null>(null)
  /** The sections copied forward and not changed since, with the day they were written. */
  const [copied, setCopied] = useState<Record<string, string>>({})

  const signed = visit.status === 'signed'
  const mode = visitMode({ signed, amending, canDiagnose, canVitals, status: a.status })
  const ro = mode !== 'draft' && mode !== 'amend'
  const charting = canDiagnose && (mode === 'draft' || mode === 'amend')
  const snippets = useSnippets(charting)
  const chartValues = useChartValues(charting ? a.id : undefined)
  const { amend, discard, replaced, ...saving } = useVisitSaving({ id: a.id, visit, draft, initial, mode, read: (v) => setLabels((l) => ({ ...l, ...labelsOf(v.diagnoses) })) })
  const labelled = useCallback((code: string, label: string) => setLabels((l) => (l[code] === label ? l : { ...l, [code]: label })), [])

  // The same aids until what they hold changes: the cards that take them are memoised on them.
  const aids: TextAids = useMemo(() => ({
    snippets: charting ? (snippets.data ?? []) : [],
    values: () => {
      const v = draft.get('vitals') as VisitContent['vitals'] | undefined
      const out: Record<string, string> = { ...chartValues.data }
      if (v?.bp_systolic && v?.bp_diastolic) out['vitals.bp'] = `${v.bp_systolic}/${v.bp_diastolic}` // as typed, saved or not
      return out
    },
    copied: (field) =>
      copied[field] ? (
        <Tag icon={<CopyIcon />} data-testid="copied-mark">
          {t('copyForward.copiedOn', { date: formatDay(copied[field]) })}
        </Tag>
      ) : null,
  }), [charting, snippets.data, chartValues.data, copied, draft, t])

  const value: VisitFormState = {
    a,
    visit,
    draft,
    initial,
    mode,
    ro,
    signed,
    canDiagnose,
    canAmend: signed && canDiagnose && !amending,
    startAmending: () => setAmending(true),
    discard: () => (discard(), setAmending(false)),
    amend: () => amend(() => setAmending(false)),
    aids,
    labels,
    labelled,
    labTests: labTests.data,
    saving,
    valuesChanged: (key) => {
      if (key === 'vitals') draft.put('vitals_copied_from', '') // measured now
      if (copied[key]) setCopied((c) => Object.fromEntries(Object.entries(c).filter(([k]) => k !== key)))
      saving.changed()
    },
    applied: (v) => {
      setLabels((l) => ({ ...l, ...labelsOf(v.diagnoses) }))
      replaced(v)
    },
    copiedIn: (next, parts, day, from) => {
      setLabels((l) => ({ ...l, ...labelsOf(from.diagnoses) }))
      draft.setMany(next)
      setCopied((c) => ({ ...c, ...Object.fromEntries(parts.filter((p) => p !== 'vitals').map((p) => [p, day])) }))
      saving.changed()
    },
    dialog,
    setDialog,
  }
  // Each user's change goes to this render's valuesChanged (it reads this render's marks).
  useEffect(() => draft.onChange(value.valuesChanged))
  return (
    <VisitDraftContext.Provider value={draft}>
      <VisitFormContext.Provider value={value}>{children}</VisitFormContext.Provider>
    </VisitDraftContext.Provider>
  )
}
