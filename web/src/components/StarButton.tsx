import { StarFilled, StarOutlined } from '@ant-design/icons'
import { Button, Tooltip } from 'antd'
import { useTranslation } from 'react-i18next'
import { useKeepsFavourites, usePicks, useStar, type FavouriteKind } from '../lib/charting'

/** Stars or unstars a medicine, test or diagnosis code as one of the doctor's favourites (pickers offer those first). */
export function StarButton({ kind, refId, name }: { kind: FavouriteKind; refId: string; name: string }) {
  const { t } = useTranslation()
  const keeps = useKeepsFavourites()
  const picks = usePicks()
  const star = useStar()
  const list = kind === 'code' ? picks.data?.codes : kind === 'test' ? picks.data?.tests : picks.data?.medicines
  const on = !!list?.some((p) => p.ref === refId && p.favourite)
  const label = on ? t('favourites.unstar', { name }) : t('favourites.star', { name })
  if (!keeps) return null // a nurse keeps no favourites
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        aria-label={label}
        aria-pressed={on}
        loading={star.isPending}
        icon={on ? <StarFilled aria-hidden style={{ color: '#ad6800' }} /> : <StarOutlined aria-hidden />}
        onClick={() => star.mutate({ kind, ref: refId, on: !on })}
      />
    </Tooltip>
  )
}
