// A light loading mark for a part of a screen that is still being fetched: a small spinning
// ring, busy (aria-busy) as the library's spinner was, and like it not a status of its own (a
// screen's status line, "Saved at …", stays the one status there is).
import styles from './Spin.module.css'

export function Spin() {
  return <span className={styles.spin} aria-busy="true" />
}
