import { useMutation, useQueryClient } from '@tanstack/react-query'
import { send } from '../../../lib/api'
import { backupsKey } from '../../../lib/queryKeys'
import type { BackupStatus } from './getBackups'

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
