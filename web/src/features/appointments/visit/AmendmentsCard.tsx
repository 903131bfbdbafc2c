import { Card, Collapse, Descriptions } from 'antd'
import { useTranslation } from 'react-i18next'
import { formatDayTime } from '../../../lib/time'
import type { Amendment } from '../api/types'

/** The amendments of a signed visit, each with what it replaced. */
export function AmendmentsCard({ amendments }: { amendments: Amendment[] }) {
  const { t } = useTranslation()
  return (
    <Card title={t('visit.sections.amendments')}>
      <Collapse
        size="small"
        items={amendments.map((m) => ({
          key: m.id,
          label: `${formatDayTime(m.amended_at)} · ${m.amended_by}: ${m.reason}`,
          children: (
            <Descriptions
              size="small"
              column={1}
              title={t('visit.before')}
              items={[
                { key: 'cc', label: t('visit.fields.chief_complaint'), children: m.previous.chief_complaint || '—' },
                { key: 'dx', label: t('visit.sections.diagnoses'), children: m.previous.diagnoses.map((d) => (d.code ? `${d.code} ${d.label ?? ''}` : d.text) + (d.primary ? ` (${t('history.primary')})` : '')).join('; ') || '—' },
                { key: 'plan', label: t('visit.fields.plan'), children: m.previous.plan || '—' },
              ]}
            />
          ),
        }))}
      />
    </Card>
  )
}
