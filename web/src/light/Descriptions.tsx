// Light descriptions: label and value pairs as a <dl>, drawn as the library's Descriptions:
// unbordered ("Total: ₱680.40", pairs side by side in columns, 1 on a phone, more on wider
// screens), or bordered (a grid of cells, the label's on a grey ground). Each pair is a <div>
// of a <dt> and a <dd> (allowed in a <dl>), so the grid lays out pairs, not halves.
import type { CSSProperties, ReactNode } from 'react'
import styles from './Descriptions.module.css'

export interface DescriptionItem {
  key: string
  label: ReactNode
  children: ReactNode
}

export interface DescriptionsProps {
  items: DescriptionItem[]
  bordered?: boolean
  /** Pairs per row: one number, or by width (the library's xs under 576 px, sm from 576, lg from 992). */
  column?: number | { xs?: number; sm?: number; lg?: number }
}

export function Descriptions({ items, bordered, column = 3 }: DescriptionsProps) {
  const c = typeof column === 'number' ? { xs: column, sm: column, lg: column } : column
  const xs = c.xs ?? 1
  const sm = c.sm ?? xs
  const style = { '--cols-xs': xs, '--cols-sm': sm, '--cols-lg': c.lg ?? sm } as CSSProperties
  return (
    <dl className={`${styles.list} ${bordered ? styles.bordered : styles.plain}`} style={style}>
      {items.map((i) => (
        <div key={i.key} className={styles.item}>
          <dt className={styles.label}>{i.label}</dt>
          <dd className={styles.value}>{i.children}</dd>
        </div>
      ))}
    </dl>
  )
}
