import { queryOptions, useQuery } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import type { Schema } from '../../../lib/schema'
import { reportsKey } from './reports'

export type Drawer = Schema<'Drawer'>

export const drawerQuery = (id: number) => queryOptions({ queryKey: [...reportsKey, 'drawer', id], queryFn: () => get<Drawer>(`/drawers/${id}`) })

export const useDrawer = (id: number) => useQuery(drawerQuery(id))

/** Opens the caller's drawer with a float, or sets the float of the shift already open. */
export const setFloat = (openingFloat: number) => send<Drawer>('put', '/drawers/float', { opening_float: openingFloat }, { silent: true })

/** Records the blind count of an open drawer (the first one stands) and answers what it should hold. */
export const countDrawer = (d: Drawer, counted: number, note = '') =>
  send<Drawer>('post', `/drawers/${d.shift_id}/count`, { counted, note, version: d.version }, { silent: true })

/** Closes a drawer's shift with the cash counted in it; a supervisor acknowledges a difference over the clinic's limit. */
export const closeDrawer = (d: Drawer, counted: number, note: string, acknowledge = false) =>
  send<Drawer>('post', `/drawers/${d.shift_id}/close`, { counted, note, acknowledge, version: d.version }, { silent: true })
