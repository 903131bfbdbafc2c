import type { ComponentProps } from 'react'
import type { Slots } from '../../../lib/slots'
import { ApplySetDialog } from './ApplySetDialog'
import { SaveSetDialog } from './SaveSetDialog'

/**
 * The visit page's order-set dialogs (the slot visitOrderSet): apply one, or save the visit as
 * one. Light dialogs (no component library), loaded as one opens; each gives focus back, as it
 * closes, to what opened it (the visit's button, or the field Alt+O was pressed in).
 */
export function VisitOrderSet({ open, ...props }: ComponentProps<Slots['visitOrderSet']>) {
  if (open === 'apply') return <ApplySetDialog {...props} />
  if (open === 'save') return <SaveSetDialog appointmentId={props.appointmentId} day={props.day} content={props.content} onClose={props.onClose} />
  return null
}
