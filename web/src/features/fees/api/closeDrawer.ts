import { send } from '../../../lib/api'
import type { Drawer } from './drawers'

/** Closes a drawer's shift with the cash counted in it; a supervisor acknowledges a difference over the clinic's limit. */
export const closeDrawer = (d: Drawer, counted: number, note: string, acknowledge = false) =>
  send<Drawer>('post', `/drawers/${d.shift_id}/close`, { counted, note, acknowledge, version: d.version }, { silent: true })
