import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { type AnalyteEdit, analytesKey } from './resultsCatalogue'

export const useAnalytes = () => useQuery({ queryKey: analytesKey, queryFn: () => get<{ data: AnalyteEdit[] }>('/lab-analytes').then((l) => l.data) })
