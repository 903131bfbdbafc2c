import type { ComponentProps } from 'react'
import { WithAntd } from '../../../lib/withAntd'
import type { Slots } from '../../../lib/slots'
import { ApplySetDialog } from './ApplySetDialog'
import { SaveSetDialog } from './SaveSetDialog'

/**
 * The visit page's order-set dialogs (the slot visitOrderSet): apply one, or save the visit as
 * one. They are built on the component library and get its provider (and sheet) as they open,
 * whether or not the page around is light; on the page itself, not in a light panel, so their
 * stacking is the library's own (no layer).
 */
export function VisitOrderSet({ open, ...props }: ComponentProps<Slots['visitOrderSet']>) {
  if (open === 'apply')
    return (
      <WithAntd>
        <ApplySetDialog {...props} />
      </WithAntd>
    )
  if (open === 'save')
    return (
      <WithAntd>
        <SaveSetDialog appointmentId={props.appointmentId} day={props.day} content={props.content} onClose={props.onClose} />
      </WithAntd>
    )
  return null
}
