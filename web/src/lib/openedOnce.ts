import { useState } from 'react'

/**
 * Whether a part shown on demand (a drawer whose code loads when first asked for) has ever been
 * open: it stays mounted from its first opening on, so that closing it still slides it away.
 */
export function useOpenedOnce(open: boolean): boolean {
  const [opened, setOpened] = useState(open)
  if (open && !opened) setOpened(true) // derived during render: React re-renders at once
  return opened || open
}
