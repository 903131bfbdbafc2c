import { useTranslation } from 'react-i18next'
import { useKeepsFavourites, usePicks, useStar, type FavouriteKind } from '../lib/charting'
import { Button } from '../light/Button'
import { StarFilledIcon, StarIcon } from './icons'
import { useTooltip } from '../light/Tooltip'
import styles from './StarButton.module.css'

/** Stars or unstars a medicine, test or diagnosis code as one of the doctor's favourites (pickers offer those first). */
export function StarButton({ kind, refId, name }: { kind: FavouriteKind; refId: string; name: string }) {
  const { t } = useTranslation()
  const keeps = useKeepsFavourites()
  const picks = usePicks()
  const star = useStar()
  const list = kind === 'code' ? picks.data?.codes : kind === 'test' ? picks.data?.tests : picks.data?.medicines
  const on = !!list?.some((p) => p.ref === refId && p.favourite)
  const label = on ? t('favourites.unstar', { name }) : t('favourites.star', { name })
  // The button is named by the same words: the tooltip is for the eye.
  const tip = useTooltip(label)
  if (!keeps) return null // a nurse keeps no favourites
  return (
    <span className={styles.anchor} {...tip.anchor}>
      <Button
        variant="text"
        size="small"
        aria-label={label}
        aria-pressed={on}
        loading={star.isPending}
        icon={on ? <span className={styles.on}><StarFilledIcon /></span> : <StarIcon />}
        onClick={() => star.mutate({ kind, ref: refId, on: !on })}
      />
      {tip.tooltip}
    </span>
  )
}
