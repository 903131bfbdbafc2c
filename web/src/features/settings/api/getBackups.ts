import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import { backupsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type BackupStatus = Schema<'BackupStatus'>

export const getBackups = () => get<BackupStatus>('/backups')

/** The scheduled backups' state, read again every five minutes while a screen shows it. */
export const backupsQuery = () => queryOptions({ queryKey: backupsKey, queryFn: getBackups, refetchInterval: 5 * 60_000 })

export const useBackups = (enabled = true) => useQuery({ ...backupsQuery(), enabled })

/** Where an archive kept is downloaded from (an audited download, for administrators). */
export const backupUrl = (name: string) => `/api/backups/${encodeURIComponent(name)}`

/** Writing a whole database's archive takes longer than an ordinary call may. */
const BACKUP_TIMEOUT_MS = 30 * 60_000

/** Back up now: the server answers once the archive is written, with the status listing it. */
export function useBackUpNow() {
  const queryClient = useQueryClient()
  return useMutation({
    mutationFn: () => send<BackupStatus>('post', '/backups', undefined, { timeout: BACKUP_TIMEOUT_MS }),
    onSuccess: (status) => queryClient.setQueryData(backupsKey, status),
    // A refusal (one is being written already) is news about the status: read it again.
    onError: () => queryClient.invalidateQueries({ queryKey: backupsKey }),
  })
}
