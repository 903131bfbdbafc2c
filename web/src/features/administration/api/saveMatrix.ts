import { send } from '../../../lib/api'

/** Replaces every role's permissions (but the admin's) at the matrix version read. */
export const saveMatrix = (matrix: Record<string, string[]>, version: number) => send<void>('put', '/roles/matrix', { matrix, version })
