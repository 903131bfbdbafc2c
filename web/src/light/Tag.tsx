// A light tag: a short word beside a value ("Archived"), drawn as Ant Design's default tag.
import type { ReactNode } from 'react'
import styles from './Tag.module.css'

export function Tag({ children }: { children: ReactNode }) {
  return <span className={styles.tag}>{children}</span>
}
