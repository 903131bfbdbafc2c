import { send } from '../../../lib/api'
import type { Drawer } from './drawers'

/** Records the blind count of an open drawer (the first one stands) and answers what it should hold. */
export const countDrawer = (d: Drawer, counted: number, note = '') =>
  send<Drawer>('post', `/drawers/${d.shift_id}/count`, { counted, note, version: d.version }, { silent: true })
