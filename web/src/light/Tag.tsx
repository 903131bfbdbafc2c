// A light tag: a short word beside a value ("Archived"), drawn as Ant Design's tag: the default
// grey, or one of its preset colours (a bill's state: blue, orange, green, red). The word says
// the state; the colour only repeats it.
import type { ReactNode } from 'react'
import styles from './Tag.module.css'

export type TagColor = 'default' | 'blue' | 'red' | 'orange' | 'green'

export function Tag({ color = 'default', children }: { color?: TagColor; children: ReactNode }) {
  return <span className={color === 'default' ? styles.tag : `${styles.tag} ${styles[color]}`}>{children}</span>
}
