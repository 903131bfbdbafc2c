import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useAskReason } from '../../../components/askReason'
import { mergeMine } from '../../../lib/merge'
import { toast } from '../../../light/Toast'
import { getVisit } from '../api/getVisit'
import type { Visit, VisitContent } from '../api/types'
import { useWriteVisit } from '../api/writeVisit'
import { VITAL_FIELDS, vitalErrors } from '../vitals'
import { contentOf, sendable } from './content'
import type { Draft } from './draft'
import { useAutosave } from './useAutosave'
import { useRefusals } from './useRefusals'
import type { VisitMode } from './visitMode'

/** How long after the last keystroke the form saves itself. */
const AUTOSAVE_MS = 1200

interface Options {
  id: number
  visit: Visit
  draft: Draft<VisitContent>
  /** What the form was given (the visit as read), which the server has until a save. */
  initial: VisitContent
  mode: VisitMode
  /** A newer version was read (after a conflict): its diagnoses' labels, for the rows it brings. */
  read?: (v: Visit) => void
}

/**
 * How the visit's form saves: by itself while a draft or vitals are typed, explicitly to sign
 * or amend, always at the version last read or written (the server refuses an older one with
 * 409, which the form offers to resolve by reading theirs and keeping this user's changes).
 * The writes go through the appointments' operations (api/writeVisit), which keep the cache.
 */
export function useVisitSaving({ id, visit, draft, initial, mode, read }: Options) {
  const { t } = useTranslation()
  const askReason = useAskReason()
  const write = useWriteVisit(id)
  const [savedAt, setSavedAt] = useState<string | null>(visit.updated_at)
  /** The saved vitals and the server's flags of them, for the patient's age on the visit's day. */
  const [savedVitals, setSavedVitals] = useState(() => ({ vitals: initial.vitals, flags: visit.vital_flags }))
  const version = useRef(visit.version)
  const loaded = useRef(initial)
  const { problem, setProblem, sending, refused } = useRefusals(draft)
  /** The signature is being asked for (its confirmation is open). */
  const [asking, setAsking] = useState(false)

  /** What is typed, as the server takes it (remembering which form row each diagnosis is). */
  const values = (): VisitContent => {
    const { content, rows, orderRows } = sendable(loaded.current, draft.all())
    sending(rows, orderRows)
    return content
  }
  /** A save went through: remember what the server has now. */
  const stored = (v: Visit) => {
    version.current = v.version
    loaded.current = contentOf(v)
    setSavedAt(v.updated_at)
    setSavedVitals({ vitals: loaded.current.vitals, flags: v.vital_flags })
  }

  const autosave = useAutosave({
    enabled: mode === 'draft' || mode === 'vitals',
    delay: AUTOSAVE_MS,
    initial: visit.version > 0 ? 'saved' : 'idle',
    failed: refused,
    run: () => {
      const content = values()
      const bad = vitalErrors(content.vitals)
      draft.setErrors(VITAL_FIELDS.map((f) => ({ path: `vitals.${f.key}`, errors: bad[f.key] ? [t(bad[f.key]!)] : [] })))
      if (Object.keys(bad).length > 0) return null
      setProblem('')
      const w = mode === 'vitals' ? ({ kind: 'vitals', vitals: content.vitals, version: version.current } as const) : ({ kind: 'draft', content, version: version.current } as const)
      return write.mutateAsync(w).then((v) => {
        stored(v)
        // What it sent is valid: no diagnosis row stays marked.
        const rows = (draft.get('diagnoses') as unknown[] | undefined) ?? []
        draft.setErrors(rows.flatMap((_, i) => (['code', 'text'] as const).map((f) => ({ path: `diagnoses.${i}.${f}`, errors: [] }))))
      })
    },
  })

  /** After a conflict: their newer version, with this user's own changes on top; then save. */
  const reloadKeepingMine = async () => {
    const latest = await getVisit(id)
    read?.(latest)
    const merged = mergeMine(loaded.current, values(), contentOf(latest), ['vitals'])
    version.current = latest.version
    loaded.current = contentOf(latest)
    draft.setMany(merged)
    toast.show('info', t('visit.conflictMerged'))
    if (latest.status === 'signed') autosave.setState('idle')
    else autosave.saveNow()
  }

  /** Runs an explicit write (sign, amend) alone, after any autosave on its way. */
  const explicitly = async (writes: () => Promise<void>) => {
    await autosave.settle()
    try {
      await writes()
      autosave.setState('saved')
    } catch (e) {
      autosave.setState(refused(e))
    }
  }
  /** Asks to sign (the visit's form shows signConfirm). */
  const sign = () => setAsking(true)
  /** The signature's confirmation: open while asked; OK saves whatever is typed but unsaved first, then signs. */
  const signConfirm = {
    open: asking,
    onCancel: () => setAsking(false),
    onOk: () =>
      explicitly(async () => {
        stored(await write.mutateAsync({ kind: 'draft', content: values(), version: version.current }))
        stored(await write.mutateAsync({ kind: 'sign', version: version.current }))
        toast.success(t('visit.signed'))
      }).finally(() => setAsking(false)),
  }
  /** Asks the amendment's reason and saves it; amended follows when it went through. */
  const amend = (amended: () => void) =>
    askReason({
      title: t('visit.amendTitle'),
      label: t('visit.amendReason'),
      okText: t('visit.saveAmendment'),
      cancelText: t('appointments.cancelButton'),
      onOk: (reason) =>
        explicitly(async () => {
          stored(await write.mutateAsync({ kind: 'amend', content: values(), version: version.current, reason }))
          amended()
          toast.success(t('visit.amended'))
        }),
    })

  /** Saves what is typed now and answers the visit's version (an order set applies on top of it). */
  const prepare = async () => {
    await autosave.settle()
    const v = await write.mutateAsync({ kind: 'draft', content: values(), version: version.current })
    stored(v)
    return v.version
  }
  /** The server changed the visit (a set was applied): the form shows it as the server has it now. */
  const replaced = (v: Visit) => {
    stored(v)
    draft.setMany(contentOf(v))
    autosave.setState('saved')
  }
  /** Puts back what the server has (an amendment given up). */
  const discard = () => draft.setMany(loaded.current)

  return {
    state: autosave.state,
    savedAt,
    savedVitals,
    problem,
    dismissProblem: () => setProblem(''),
    changed: autosave.changed,
    values,
    sign,
    signConfirm,
    signing: write.isPending && autosave.state !== 'saving',
    amend,
    prepare,
    replaced,
    discard,
    reloadKeepingMine,
  }
}

/** How the visit's form saves (useVisitSaving). */
export type VisitSaving = ReturnType<typeof useVisitSaving>
