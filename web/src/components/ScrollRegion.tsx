import type { ReactNode } from 'react'

/**
 * A table that scrolls sideways on a phone does so inside this region, which the keyboard
 * can reach (and which has a name) whether the rows are there yet or not — a bare scrolling
 * table has no focusable content while it loads. Give the table a minWidth instead of scroll.
 */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ overflowX: 'auto' }} tabIndex={0} role="region" aria-label={label}>
      {children}
    </div>
  )
}
