import { queryOptions, useQuery } from '@tanstack/react-query'
import { get } from '../../../lib/api'
import type { Drawer } from './drawers'
import { reportsKey } from './reports'

export const drawerQuery = (id: number) => queryOptions({ queryKey: [...reportsKey, 'drawer', id], queryFn: () => get<Drawer>(`/drawers/${id}`) })

export const useDrawer = (id: number) => useQuery(drawerQuery(id))
