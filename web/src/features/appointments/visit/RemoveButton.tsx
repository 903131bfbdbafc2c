import { Button } from '../../../light/Button'
import { DeleteIcon } from '../../../light/icons'

/** Removes a row of a list; named for screen readers. */
export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return <Button icon={<DeleteIcon />} aria-label={label} onClick={onClick} />
}
