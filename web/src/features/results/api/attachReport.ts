import { send } from '../../../lib/api'
import { useResultsMutation } from './mutation'
import type { LabOrder } from './types'

/** Attaches the lab's own report (PDF or image) to an order. */
export const useAttachReport = (id: number) =>
  useResultsMutation(({ file, version }: { file: File; version: number }) => {
    const fd = new FormData()
    fd.append('file', file, file.name)
    return send<LabOrder>('post', `/lab-orders/${id}/report?version=${version}`, fd)
  })
