// A light card: a screen's white panel with its title (the page's h2, which the frame's tab and
// the skip link name) and the title row's tools, which wrap under it on a phone. Inside a
// screen (the dashboard's charts and calendar) a card is a panel of its own, as the library's
// card was: level 3 puts its title, an h3, on a head row ruled off from its body; size small
// draws a titleless 12 px panel (a figure), hoverable when the whole card is a link.
import type { ReactNode } from 'react'
import styles from './Card.module.css'

export interface CardProps {
  /** The title: the page's h2 (level 2), or a panel's h3 (level 3); none on a small card. */
  title?: ReactNode
  /** The title's id, for a table or region it labels. */
  titleId?: string
  /** Drawn at the title row's end: the screen's actions and filters. */
  extra?: ReactNode
  /** 2: a screen's panel under its page title (the default); 3: a panel inside a screen. */
  level?: 2 | 3
  /** small: a panel with less padding and no head row. */
  size?: 'small'
  /** Raised under the pointer: a card inside a link. */
  hoverable?: boolean
  className?: string
  children: ReactNode
}

export function Card({ title, titleId, extra, level = 2, size, hoverable, className, children }: CardProps) {
  const classes = [styles.card, level === 3 ? styles.panel : '', size === 'small' ? styles.small : '', hoverable ? styles.hoverable : '', className]
  const Heading = level === 3 ? 'h3' : 'h2'
  const head = (title !== undefined || extra) && (
    <div className={level === 3 ? styles.head : styles.top}>
      {title !== undefined && (
        <Heading id={titleId} className={level === 3 ? styles.headTitle : `page-title ${styles.title}`}>
          {title}
        </Heading>
      )}
      {extra && <div className={styles.tools}>{extra}</div>}
    </div>
  )
  return (
    <section className={classes.filter(Boolean).join(' ')}>
      {head}
      {level === 3 ? <div className={styles.body}>{children}</div> : children}
    </section>
  )
}
