import { send } from '../../../lib/api'
import { useResultsMutation } from './mutation'

/** Marks orders' results reviewed, with a comment (and what follows up). */
export const useReview = () =>
  useResultsMutation((body: { orders: { id: number; version: number }[]; comment: string; followup?: string }) =>
    send<{ reviewed: number }>('post', '/results/review', body, { silent: true }),
  )
