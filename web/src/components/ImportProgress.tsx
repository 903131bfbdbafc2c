import { useQuery } from '@tanstack/react-query'
import { useTranslation } from 'react-i18next'
import { meQuery } from '../lib/auth/me'
import { useImportProgress } from '../lib/live'
import { Progress } from '../light/Progress'

// On the light set (issue 58): the codes' drawer on the light queue shows it without the library.
/** While an import of list runs: how many rows the server has written of about how many. */
export function ImportProgressBar({ list, active }: { list: string; active: boolean }) {
  const { t, i18n } = useTranslation()
  const { data: me } = useQuery(meQuery)
  const p = useImportProgress(me?.id, list, active)
  if (!active) return null
  const number = new Intl.NumberFormat(i18n.language)
  const text = p ? t('import.progress', { done: number.format(p.done), total: number.format(p.total) }) : t('import.starting')
  return (
    <div role="status" data-testid="import-progress" style={{ minWidth: 220 }}>
      <Progress percent={p ? Math.min(99, Math.round((p.done / p.total) * 100)) : 0} label={text} />
      {text}
    </div>
  )
}
