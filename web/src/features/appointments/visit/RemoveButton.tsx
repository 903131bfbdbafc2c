import { DeleteOutlined } from '@ant-design/icons'
import { Button } from 'antd'

/** Removes a row of a list; named for screen readers. */
export function RemoveButton({ label, onClick }: { label: string; onClick: () => void }) {
  return <Button icon={<DeleteOutlined aria-hidden />} aria-label={label} onClick={onClick} />
}
