import { Alert, Card, Flex, Spin, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import { useMedicineSafety } from './api/medicineSafety'
import { AliasesCard } from './components/AliasesCard'
import { InteractionsCard } from './components/InteractionsCard'

/** Administrator → Medicine safety: what the check knows, plainly what it does not, and the clinic's own brand names and interaction rules. */
export default function MedicineSafetyPage() {
  const { t } = useTranslation()
  const { data } = useMedicineSafety()
  if (!data) return <Spin />
  return (
    <Flex vertical gap={16}>
      <Card title={t('medicineSafety.title')}>
        <Typography.Paragraph>
          {t('medicineSafety.intro', { substances: data.substances, aliases: data.aliases, classes: data.classes, cross: data.cross_sensitivities, interactions: data.interactions })}
        </Typography.Paragraph>
        <Alert type="info" showIcon title={t('medicineSafety.limits')} />
      </Card>
      <AliasesCard aliases={data.clinic_aliases} names={new Map(data.substance_names.map((s) => [s.key, s.name]))} />
      <InteractionsCard rules={data.clinic_interactions} />
    </Flex>
  )
}
