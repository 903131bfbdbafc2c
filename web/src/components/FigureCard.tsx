// A figure on the dashboard (its own and the results feature's): a small card with a statistic
// that is a link to the list it counts, and lines under it (the day's statuses, a warning). The
// cards sit in the dashboard's grid of figures, each as tall as its row.
import type { ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { Card } from '../light/Card'
import { Statistic } from '../light/Statistic'
import styles from './FigureCard.module.css'

export interface FigureCardProps {
  title: string
  /** A count (written as the user's language writes numbers) or a formatted sum; loading while undefined. */
  value?: number | string
  to: string
  testId: string
  /** Under the figure. */
  extra?: ReactNode
  /** danger: a figure that asks for action, in the error colour. */
  tone?: 'danger'
}

export function FigureCard({ title, value, to, testId, extra, tone }: FigureCardProps) {
  const { i18n } = useTranslation()
  const shown = typeof value === 'number' ? new Intl.NumberFormat(i18n.language).format(value) : (value ?? '–')
  return (
    <Link to={to} data-testid={testId} className={styles.figure}>
      <Card size="small" hoverable>
        <Statistic title={title} value={shown} loading={value === undefined} tone={tone} />
        {extra}
      </Card>
    </Link>
  )
}

/** A line under a figure: secondary, or a warning in the error colour. */
export function FigureNote({ danger, children }: { danger?: boolean; children: ReactNode }) {
  return <div className={danger ? styles.danger : styles.note}>{children}</div>
}
