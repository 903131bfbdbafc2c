import { send } from '../../../lib/api'
import type { Drawer } from './drawers'

/** Opens the caller's drawer with a float, or sets the float of the shift already open. */
export const setFloat = (openingFloat: number) => send<Drawer>('put', '/drawers/float', { opening_float: openingFloat }, { silent: true })
