// A light empty state: the library's small picture over a line of muted text, as the tables'
// own (light/Table.tsx) and the bill's; `small` for a card's list, with less room.
import type { ReactNode } from 'react'
import styles from './Empty.module.css'
import { EmptyImage } from './icons'

export function Empty({ children, image = true, small = false, 'data-testid': testId }: { children: ReactNode; image?: boolean; small?: boolean; 'data-testid'?: string }) {
  return (
    <div className={`${styles.empty} ${small ? styles.small : ''}`} data-testid={testId}>
      {image && <EmptyImage />}
      <div>{children}</div>
    </div>
  )
}
