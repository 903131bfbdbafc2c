import { queryOptions, useQuery } from '@tanstack/react-query'
import { get, send } from '../../../lib/api'
import type { Schema } from '../../../lib/schema'
import { reportsKey } from './reports'

export type Drawer = Schema<'Drawer'>

export const drawerQuery = (id: number) => queryOptions({ queryKey: [...reportsKey, 'drawer', id], queryFn: () => get<Drawer>(`/drawers/${id}`) })

export const useDrawer = (id: number) => useQuery(drawerQuery(id))

/** Opens the caller's drawer with a float, or sets the float of the shift already open. */
export const setFloat = (openingFloat: number) => send<Drawer>('put', '/drawers/float', { opening_float: openingFloat }, { silent: true })

/** Closes a drawer's shift with the cash counted in it. */
export const closeDrawer = (d: Drawer, counted: number, note: string) => send<Drawer>('post', `/drawers/${d.shift_id}/close`, { counted, note, version: d.version }, { silent: true })
