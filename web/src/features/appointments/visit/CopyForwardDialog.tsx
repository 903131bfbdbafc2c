import { useQuery } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { patientVisitsQuery } from '../../../lib/queries/patientVisits'
import { formatDay } from '../../../lib/time'
import { Alert } from '../../../light/Alert'
import { Button } from '../../../light/Button'
import { Checkbox } from '../../../light/Checkbox'
import { Dialog } from '../../../light/Dialog'
import { Spin } from '../../../light/Spin'
import { visitQuery } from '../api/getVisit'
import type { Appointment, Visit, VisitContent, Vitals } from '../api/types'
import styles from './parts.module.css'

/** The parts of a visit that copy forward. */
export const COPYABLE = ['vitals', 'chief_complaint', 'present_illness', 'examination', 'diagnoses', 'plan'] as const
export type Copyable = (typeof COPYABLE)[number]

const measured = (v: Vitals) => Object.values(v).some((x) => x !== null && x !== undefined)

/** Whether a visit has something in a part. */
export function hasPart(v: VisitContent, part: Copyable): boolean {
  if (part === 'vitals') return measured(v.vitals)
  if (part === 'diagnoses') return v.diagnoses.length > 0
  return v[part].trim() !== ''
}

/**
 * The draft with the chosen parts of an earlier visit copied in: a text the draft has already
 * gets the copy after it on a new line; diagnoses the draft lacks are added; vitals replace the
 * draft's and say the day they were taken (vitals_copied_from) until someone measures again.
 */
export function copyInto(draft: VisitContent, from: VisitContent, day: string, parts: Copyable[]): VisitContent {
  const out: VisitContent = { ...draft, diagnoses: [...draft.diagnoses] }
  for (const p of parts) {
    if (p === 'vitals') {
      out.vitals = { ...from.vitals }
      out.vitals_copied_from = day
    } else if (p === 'diagnoses') {
      const hasPrimary = out.diagnoses.some((d) => d.primary)
      for (const d of from.diagnoses) {
        if (!out.diagnoses.some((x) => (d.code ? x.code === d.code : x.text === d.text))) out.diagnoses.push({ code: d.code, text: d.text, primary: d.primary && !hasPrimary })
      }
    } else {
      const text = from[p].trim()
      out[p] = draft[p].trim() ? `${draft[p].trimEnd()}\n${text}` : text
    }
  }
  return out
}

/**
 * The parts ticked when the dialog opens: all the earlier visit has but its vitals, which are
 * opt-in (a morning's blood pressure is not this afternoon's measurement).
 */
export const tickedAtFirst = (available: Copyable[]) => available.filter((p) => p !== 'vitals')

interface Props {
  a: Appointment
  content: () => VisitContent
  onCopy: (next: VisitContent, parts: Copyable[], day: string, from: Visit) => void
  onClose: () => void
}

/** Copies chosen parts of the patient's previous visit into this draft, saying what came from where. */
export function CopyForwardDialog({ a, content, onCopy, onClose }: Props) {
  const { t } = useTranslation()
  const history = useQuery(patientVisitsQuery({ patient_id: a.patient_id, page: 1, per_page: 20 }))
  const previous = history.data?.data.find((x) => x.id !== a.id && x.starts_at < a.starts_at && (x.status === 'completed' || x.status === 'in-progress'))
  const visit = useQuery({ ...visitQuery(previous?.id ?? 0), enabled: !!previous })
  const [parts, setParts] = useState<Copyable[] | null>(null)
  const v: Visit | undefined = visit.data
  const available = v ? COPYABLE.filter((p) => hasPart(v, p)) : []
  const chosen = parts ?? tickedAtFirst(available)
  const loading = history.isLoading || (!!previous && visit.isLoading)
  // The first part takes focus once the parts are there (the dialog opened while they loaded).
  const list = useRef<HTMLDivElement>(null)
  const shown = available.length > 0
  useEffect(() => {
    if (shown) list.current?.querySelector<HTMLInputElement>('input[type=checkbox]')?.focus()
  }, [shown])
  const ready = !!v && chosen.length > 0
  const copy = () => v && previous && (onCopy(copyInto(content(), v, previous.day, chosen), chosen, previous.day, v), onClose())
  return (
    <Dialog
      open
      title={t('copyForward.title')}
      closeLabel={t('app.icons.close')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('appointments.cancelButton')}</Button>
          <Button variant="primary" disabled={!ready} onClick={copy}>
            {t('copyForward.copy')}
          </Button>
        </>
      }
    >
      {loading ? (
        <Spin />
      ) : !previous || !v || available.length === 0 ? (
        <Alert type="info" title={t('copyForward.none')} />
      ) : (
        <div className={styles.copyBody}>
          <div>{t('copyForward.from', { date: formatDay(previous.day), doctor: previous.doctor_name })}</div>
          {/* Each part a checkbox named by its title and what it holds. */}
          <div className={styles.copyParts} ref={list}>
            {available.map((p) => (
              <Checkbox key={p} checked={chosen.includes(p)} onChange={(on) => setParts(on ? COPYABLE.filter((x) => x === p || chosen.includes(x)) : chosen.filter((x) => x !== p))}>
                <strong>{t(`copyForward.parts.${p}`)}</strong>
                <span className={styles.preview}>{preview(v, p, t)}</span>
              </Checkbox>
            ))}
          </div>
          <div className={styles.secondary}>{t('copyForward.note')}</div>
        </div>
      )}
    </Dialog>
  )
}

function preview(v: Visit, p: Copyable, t: (k: string) => string): string {
  if (p === 'vitals') {
    const x = v.vitals
    return [x.bp_systolic && x.bp_diastolic && `${t('visit.vitals.bp_short')} ${x.bp_systolic}/${x.bp_diastolic}`, x.heart_rate && `${t('visit.vitals.heart_rate')} ${x.heart_rate}`, x.weight && `${t('visit.vitals.weight')} ${x.weight}`]
      .filter(Boolean)
      .join(' · ')
  }
  if (p === 'diagnoses') return v.diagnoses.map((d) => (d.code ? `${d.code} ${d.label ?? ''}` : d.text)).join('; ')
  return v[p]
}
