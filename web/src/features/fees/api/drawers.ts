import type { Schema } from '../../../lib/schema'

export type Drawer = Schema<'Drawer'>
