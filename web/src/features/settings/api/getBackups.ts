import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import { backupsKey } from '../../../lib/queryKeys'
import type { Schema } from '../../../lib/schema'

export type BackupStatus = Schema<'BackupStatus'>

export const getBackups = () => get<BackupStatus>('/backups')

/** The scheduled backups' state, read again every five minutes while a screen shows it. */
export const backupsQuery = () => queryOptions({ queryKey: backupsKey, queryFn: getBackups, refetchInterval: 5 * 60_000 })

export const useBackups = (enabled = true) => useQuery({ ...backupsQuery(), enabled })

/** Where an archive kept is downloaded from (an audited download, for administrators). */
export const backupUrl = (name: string) => `/api/backups/${encodeURIComponent(name)}`
