// A light card: a screen's white panel with its title (the page's h2, which the frame's tab and
// the skip link name) and the title row's tools, which wrap under it on a phone. look="panel"
// draws the library's plain card instead (a 16 px title in a head row with a line under it),
// for a part shown in a page, a drawer or a form (a bill): its title an h2 that is not the page's.
import type { ReactNode } from 'react'
import styles from './Card.module.css'

export interface CardProps {
  title: ReactNode
  /** The title's id, for a table or region it labels. */
  titleId?: string
  /** Drawn at the title row's end: the screen's actions and filters. */
  extra?: ReactNode
  look?: 'page' | 'panel'
  'data-testid'?: string
  children: ReactNode
}

export function Card({ title, titleId, extra, look = 'page', 'data-testid': testId, children }: CardProps) {
  const panel = look === 'panel'
  return (
    <section className={panel ? `${styles.card} ${styles.panel}` : styles.card} data-testid={testId}>
      <div className={styles.top}>
        <h2 id={titleId} className={panel ? styles.title : `page-title ${styles.title}`}>
          {title}
        </h2>
        {extra && <div className={styles.tools}>{extra}</div>}
      </div>
      {panel ? <div className={styles.body}>{children}</div> : children}
    </section>
  )
}
