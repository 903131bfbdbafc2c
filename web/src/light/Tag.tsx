// A light tag: a short word beside a value ("Archived"), drawn as Ant Design's default tag, or in
// one of its preset colours (a role, an appointment's status) with text dark enough to read.
import type { ReactNode } from 'react'
import styles from './Tag.module.css'

/** The library's preset colours the screens use (lib/labels names statuses by them). */
export type TagColor = 'default' | 'blue' | 'gold' | 'purple' | 'green' | 'red' | 'orange' | 'cyan' | 'magenta'

export function Tag({ color = 'default', children }: { color?: TagColor; children: ReactNode }) {
  return <span className={color === 'default' ? styles.tag : `${styles.tag} ${styles[color]}`}>{children}</span>
}
