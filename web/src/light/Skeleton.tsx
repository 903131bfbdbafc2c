// A light loading placeholder, drawn as Ant Design's skeleton: grey lines (or one block, a
// chart's place) with a slow shine passing over them while a part of a screen is fetched. The
// placeholder is busy (aria-busy) and its shapes are hidden from screen readers; the shine
// stops for whoever asks their system for less motion.
import type { CSSProperties } from 'react'
import styles from './Skeleton.module.css'

export interface SkeletonProps {
  /** Lines of text to stand in for, each by its width ('70%', 120): one line of 61 % by default. */
  lines?: (string | number)[]
  /** A block instead of lines, this tall (px): a chart's or a picture's place. */
  block?: number
  className?: string
  style?: CSSProperties
  /** Said to a screen reader in the shapes' place ("Loading…"), in the user's language. */
  label?: string
}

export function Skeleton({ lines = ['61%'], block, className, style, label }: SkeletonProps) {
  return (
    <div className={[styles.skeleton, className].filter(Boolean).join(' ')} style={style} aria-busy="true">
      {label && <span className="visually-hidden">{label}</span>}
      {block !== undefined ? (
        <span className={`${styles.shape} ${styles.block}`} style={{ height: block }} aria-hidden />
      ) : (
        lines.map((width, i) => <span key={i} className={`${styles.shape} ${styles.line}`} style={{ width }} aria-hidden />)
      )}
    </div>
  )
}
