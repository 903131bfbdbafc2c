import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { accountsKey } from '../../../lib/queryKeys'
import { useRefresh } from '../../../lib/write'
import type { Account } from './types'

export const getAccount = (id: number) => get<Account>(`/users/${id}`)

export const accountQuery = (id: number) => queryOptions({ queryKey: [...accountsKey, 'one', id], queryFn: () => getAccount(id), refetchOnWindowFocus: false })

export const useAccount = (id: number) => useQuery(accountQuery(id))

/** A write answered the account as it now is: shown at once, and every list of accounts read again. */
export function useAccountChanged(id: number) {
  const queryClient = useQueryClient()
  return (next: Account) => {
    queryClient.setQueryData(accountQuery(id).queryKey, next)
    void queryClient.invalidateQueries({ queryKey: accountsKey })
  }
}

/** The account read again. */
export const useRefreshAccount = (id: number) => useRefresh(accountQuery(id).queryKey)
