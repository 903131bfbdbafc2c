import { useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { labTestsKey } from '../../../lib/queryKeys'
import type { TestDefinition } from './resultsCatalogue'

export const testDefinitionsKey = [...labTestsKey, 'definitions'] as const

export const useTestDefinitions = () =>
  useQuery({ queryKey: testDefinitionsKey, queryFn: () => get<{ data: TestDefinition[] }>('/lab-test-definitions').then((l) => l.data) })
