import { send } from '../../../lib/api'
import { type ReleaseKind, type ReleaseStatus, paths } from './release'

/** Releases an item at the decision's version. */
export const releaseItem = (kind: ReleaseKind, id: number, version: number) => send<ReleaseStatus>('post', `/release/${paths[kind]}/${id}`, { action: 'release', version })
