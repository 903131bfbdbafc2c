import { useRef, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { ApiError } from '../../../lib/api'
import { toast } from '../../../light/Toast'
import type { VisitContent } from '../api/types'
import type { Draft } from './draft'
import type { SaveState } from './useAutosave'

/**
 * How the visit's form shows a refused write: the server's field messages on their fields
 * ("diagnoses.0.code" or "orders.0.code" on the form row it came from, which the form
 * tells `sending`), a list's own message as the page's problem, anything else as a toast.
 * `refused` answers the state the refusal leaves.
 */
export function useRefusals(draft: Draft<VisitContent>) {
  const { t } = useTranslation()
  const [problem, setProblem] = useState('')
  const sentRows = useRef<{ diagnoses: number[]; orders: number[] }>({ diagnoses: [], orders: [] })

  const showFieldErrors = (fields: Record<string, string[]>) => {
    draft.setErrors(
      Object.entries(fields).map(([f, errors]) => {
        const path: (string | number)[] = f.split('.').map((p) => (/^\d+$/.test(p) ? Number(p) : p))
        if ((path[0] === 'diagnoses' || path[0] === 'orders') && typeof path[1] === 'number') path[1] = sentRows.current[path[0]][path[1]] ?? path[1]
        return { path: path.join('.'), errors }
      }),
    )
    const general = fields.diagnoses ?? fields.orders
    if (general) setProblem(general.join(' '))
  }

  const refused = (e: unknown): SaveState => {
    if (!(e instanceof ApiError)) return 'idle'
    if (e.status === 409 && e.code === 'error.conflict') return 'conflict'
    if (e.status === 422 && Object.keys(e.fields).length > 0) {
      showFieldErrors(e.fields)
      return 'invalid'
    }
    toast.error(e.display || t('errors.generic'))
    return 'idle'
  }

  /** The form rows of the diagnoses and of the orders a write sends, in order. */
  const sending = (diagnoses: number[], orders: number[]) => {
    sentRows.current = { diagnoses, orders }
  }

  return { problem, setProblem, sending, refused }
}
