// A light card: a screen's white panel with its title (the page's h2, which the frame's tab and
// the skip link name) and the title row's tools, which wrap under it on a phone.
import type { ReactNode } from 'react'
import styles from './Card.module.css'

export interface CardProps {
  title: ReactNode
  /** The title's id, for a table or region it labels. */
  titleId?: string
  /** Drawn at the title row's end: the screen's actions and filters. */
  extra?: ReactNode
  children: ReactNode
}

export function Card({ title, titleId, extra, children }: CardProps) {
  return (
    <section className={styles.card}>
      <div className={styles.top}>
        <h2 id={titleId} className={`page-title ${styles.title}`}>
          {title}
        </h2>
        {extra && <div className={styles.tools}>{extra}</div>}
      </div>
      {children}
    </section>
  )
}
