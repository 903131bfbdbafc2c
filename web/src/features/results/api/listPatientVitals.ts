import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { resultsKey } from '../../../lib/queryKeys'

/** A patient's vitals by visit, from a day on (the vitals trends). */
export const usePatientVitals = <T,>(id: number, from: string, enabled: boolean) =>
  useQuery({ queryKey: [...resultsKey, 'vitals', id, from], queryFn: () => get<{ data: T[] }>(`/patients/${id}/vitals`, { from }).then((l) => l.data), enabled })
