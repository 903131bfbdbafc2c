// A light statistic, drawn as Ant Design's: a small grey title over a large value, a term and
// its definition (so a test or a screen reader finds the value by its role). The caller
// formats the value (a number in the user's language, a sum of money); while it loads, a skeleton
// (a title's and a line's) stands in for it.
import type { ReactNode } from 'react'
import { Skeleton } from './Skeleton'
import styles from './Statistic.module.css'

export interface StatisticProps {
  title: ReactNode
  value: ReactNode
  /** Not known yet: a skeleton line in the value's place. */
  loading?: boolean
  /** danger: a value that asks for action (critical results waiting), in the error colour. */
  tone?: 'danger'
}

export function Statistic({ title, value, loading = false, tone }: StatisticProps) {
  return (
    <dl className={styles.statistic}>
      <dt className={styles.title}>{title}</dt>
      <dd className={[styles.value, tone === 'danger' ? styles.danger : ''].join(' ').trim()}>
        {loading ? <Skeleton className={styles.loading} lines={['38%', '61%']} /> : value}
      </dd>
    </dl>
  )
}
