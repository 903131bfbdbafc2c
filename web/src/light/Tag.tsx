// A light tag: a short word beside a value ("Archived", an appointment's status), drawn as Ant
// Design's tag: the default grey one, or one of its named colours (a pale tint, its text dark
// enough to read on it, as styles.css made the library's), with an optional icon before the words.
import type { HTMLAttributes, ReactNode } from 'react'
import styles from './Tag.module.css'

/** The library's colour names the screens use (lib/labels, lib/patientMessages). */
export type TagColor = 'default' | 'blue' | 'gold' | 'purple' | 'green' | 'red' | 'orange' | 'cyan' | 'magenta' | 'processing' | 'success' | 'error' | 'warning'

const tints: Record<string, string | undefined> = {
  blue: styles.blue,
  processing: styles.blue,
  gold: styles.gold,
  warning: styles.gold,
  purple: styles.purple,
  green: styles.green,
  success: styles.green,
  red: styles.red,
  error: styles.red,
  orange: styles.orange,
  cyan: styles.cyan,
  magenta: styles.magenta,
}

export interface TagProps extends HTMLAttributes<HTMLSpanElement> {
  /** A named colour; an unknown one (or none) is the default grey. */
  color?: TagColor | string
  icon?: ReactNode
  children: ReactNode
}

export function Tag({ color, icon, className, children, ...rest }: TagProps) {
  return (
    <span className={[styles.tag, color ? tints[color] : undefined, className].filter(Boolean).join(' ')} {...rest}>
      {icon && (
        <span className={styles.icon} aria-hidden>
          {icon}
        </span>
      )}
      {children}
    </span>
  )
}
