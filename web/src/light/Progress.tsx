// A light progress line (the library's small Progress): a native <progress> drawn as a thin
// rounded bar in the clinic's colour, its percent after it (hidden from screen readers, which
// read the bar's own value). Named by `label`.
import styles from './Progress.module.css'

export function Progress({ percent, label }: { /** 0–100. */ percent: number; label: string }) {
  const value = Math.max(0, Math.min(100, Math.round(percent)))
  return (
    <div className={styles.progress}>
      <progress className={styles.bar} max={100} value={value} aria-label={label} />
      <span className={styles.text} aria-hidden>
        {value}%
      </span>
    </div>
  )
}
