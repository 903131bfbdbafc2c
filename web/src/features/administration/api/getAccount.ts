import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { accountsKey } from '../../../lib/queryKeys'
import type { Account } from './types'

export const getAccount = (id: number) => get<Account>(`/users/${id}`)

export const accountQuery = (id: number) => queryOptions({ queryKey: [...accountsKey, 'one', id], queryFn: () => getAccount(id), refetchOnWindowFocus: false })

export const useAccount = (id: number) => useQuery(accountQuery(id))
