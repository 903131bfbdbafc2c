import { useId, type ReactNode } from 'react'
import { Card } from '../../../light/Card'
import styles from './visit.module.css'

/**
 * A section of the visit's form: a panel under the page's title, reached by its shortcut
 * (Alt+1…, useVisitShortcuts), which focuses the element with its id.
 */
export function Section({ id, title, extra, children }: { id: string; title: ReactNode; extra?: ReactNode; children: ReactNode }) {
  return (
    <div id={id} tabIndex={-1} className={styles.section}>
      <Card look="panel" level={3} title={title} extra={extra}>
        {children}
      </Card>
    </div>
  )
}

/** A field of a list's row without a label of its own (its control is named by aria-label), with its message under it. */
export function Cell({ error, className, children }: { error?: string; className?: string; children: (aria: { 'aria-describedby'?: string; 'aria-invalid'?: true }) => ReactNode }) {
  const id = `${useId()}-error`
  return (
    <div className={[styles.cell, className].filter(Boolean).join(' ')}>
      {children({ 'aria-describedby': error ? id : undefined, 'aria-invalid': error ? true : undefined })}
      {error && (
        <div id={id} className={styles.error}>
          {error}
        </div>
      )}
    </div>
  )
}
