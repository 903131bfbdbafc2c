// A row's queue number, with buttons that move it up or down when the queue may be reordered.
import { useTranslation } from 'react-i18next'
import { IconButton } from '../../../light/IconButton'
import { ArrowDownIcon, ArrowUpIcon } from './icons'
import styles from './queue.module.css'

export function QueueNumber({ n, index, last, move, busy }: { n: number; index: number; last: boolean; move?: (index: number, delta: number) => void; busy: boolean }) {
  const { t } = useTranslation()
  return (
    <span className={styles.number}>
      <strong>{n}</strong>
      {move && (
        <>
          <IconButton className={styles.arrow} tooltipAlign="start" label={t('appointments.moveUp', { number: n })} disabled={index === 0 || busy} onClick={() => move(index, -1)}>
            <ArrowUpIcon />
          </IconButton>
          <IconButton className={styles.arrow} tooltipAlign="start" label={t('appointments.moveDown', { number: n })} disabled={last || busy} onClick={() => move(index, 1)}>
            <ArrowDownIcon />
          </IconButton>
        </>
      )}
    </span>
  )
}
