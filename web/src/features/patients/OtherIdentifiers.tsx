import { Card, List, Typography } from 'antd'
import { useTranslation } from 'react-i18next'
import type { Schema } from '../../lib/schema'
import { ListMeta } from '../../components/ListMeta'

type Identifier = Schema<'PatientIdentifier'>

/** The label of an identifier's kind: its text, else its code's display, else the code. */
function kindOf(id: Identifier) {
  const coding = id.type?.coding?.[0]
  return id.type?.text || coding?.display || coding?.code || ''
}

/** The patient's numbers in other systems (a national ID, an insurer's, another record's), as connected systems sent them: read-only, so that a clinician sees what came in. */
export function OtherIdentifiers({ identifiers }: { identifiers: Identifier[] }) {
  const { t } = useTranslation()
  if (identifiers.length === 0) return null
  return (
    <Card title={t('patients.sections.identifiers')} size="small">
      <List
        size="small"
        dataSource={identifiers}
        renderItem={(id) => (
          <List.Item>
            <ListMeta
              title={
                <>
                  {kindOf(id) && <Typography.Text type="secondary">{kindOf(id)}: </Typography.Text>}
                  <Typography.Text copyable>{id.value}</Typography.Text>
                </>
              }
              description={<Typography.Text type="secondary" style={{ fontSize: 12 }}>{id.system || t('patients.identifierNoSystem')}</Typography.Text>}
            />
          </List.Item>
        )}
      />
    </Card>
  )
}
