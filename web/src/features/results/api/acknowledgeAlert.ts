import { send } from '../../../lib/api'
import { useResultsMutation } from './mutation'

/** Acknowledges a critical alert (who was told, and how), or records the follow-up of a withdrawn one. */
export const useAcknowledge = () =>
  useResultsMutation(({ id, ...body }: { id: number } & ({ result_id: number; contact: string; action: string; received_by: string; read_back: string } | { followup: string; note: string })) =>
    send<void>('post', `/results/alerts/${id}/acknowledge`, body, { silent: true }),
  )
