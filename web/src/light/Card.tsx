// A light card: a screen's white panel with its title (the page's h2, which the frame's tab and
// the skip link name) and the title row's tools, which wrap under it on a phone. A panel inside
// a page (look="panel": a bill in a drawer or a form; level 3: the dashboard's charts and
// calendar) is the library's plain card: a 16 px title on a head row ruled off from its body,
// an h2 that is not the page's title, or an h3 under it. Size small draws a titleless 12 px
// panel (a figure), hoverable when the whole card is a link.
import type { ReactNode } from 'react'
import styles from './Card.module.css'

export interface CardProps {
  title?: ReactNode
  /** The title's id, for a table or region it labels. */
  titleId?: string
  /** Drawn at the title row's end: the screen's actions and filters. */
  extra?: ReactNode
  /** page: a screen's panel with the page's title (the default); panel: a part inside a page. */
  look?: 'page' | 'panel'
  /** The heading's level: 2 (the default), or 3 for a panel under the page's title (implies look="panel"). */
  level?: 2 | 3
  /** small: a panel with less padding and no head row. */
  size?: 'small'
  /** Raised under the pointer: a card inside a link. */
  hoverable?: boolean
  className?: string
  'data-testid'?: string
  children: ReactNode
}

export function Card({ title, titleId, extra, look = 'page', level = 2, size, hoverable, className, 'data-testid': testId, children }: CardProps) {
  const panel = look === 'panel' || level === 3
  const classes = [styles.card, panel ? styles.panel : '', size === 'small' ? styles.small : '', hoverable ? styles.hoverable : '', className]
  const Heading = level === 3 ? 'h3' : 'h2'
  const head = (title !== undefined || extra) && (
    <div className={panel ? styles.head : styles.top}>
      {title !== undefined && (
        <Heading id={titleId} className={panel ? styles.headTitle : `page-title ${styles.title}`}>
          {title}
        </Heading>
      )}
      {extra && <div className={styles.tools}>{extra}</div>}
    </div>
  )
  return (
    <section className={classes.filter(Boolean).join(' ')} data-testid={testId}>
      {head}
      {panel ? <div className={styles.body}>{children}</div> : children}
    </section>
  )
}
