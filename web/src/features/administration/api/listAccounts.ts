import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { accountsKey } from '../../../lib/queryKeys'
import { useRefresh } from '../../../lib/write'
import type { Account } from './types'

export interface AccountsParams {
  q: string
  status: '' | 'active' | 'inactive'
  page: number
  per_page: number
}

export const listAccounts = (p: AccountsParams) =>
  get<{ data: Account[]; meta: { total: number } }>('/users', { q: p.q || undefined, status: p.status || undefined, page: p.page, per_page: p.per_page })

export const accountsQuery = (p: AccountsParams) =>
  queryOptions({ queryKey: [...accountsKey, 'list', p], queryFn: () => listAccounts(p), placeholderData: keepPreviousData })

export const useAccounts = (p: AccountsParams) => useQuery(accountsQuery(p))

/** Every list of accounts read again (after one was added). */
export const useRefreshAccounts = () => useRefresh(accountsKey)
