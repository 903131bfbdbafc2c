import { useTranslation } from 'react-i18next'
import type { Schema } from '../../lib/schema'
import { Card } from '../../light/Card'
import list from '../../components/itemList.module.css'
import { CopyButton } from './CopyButton'
import styles from './chart.module.css'

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
    <Card level={3} title={t('patients.sections.identifiers')} className={styles.smallCard} data-testid="other-identifiers">
      <ul className={`${list.list} ${list.small}`}>
        {identifiers.map((id, i) => (
          <li key={i} className={list.item}>
            <div className={list.meta}>
              <div className={list.title}>
                {kindOf(id) && <span className={list.secondary}>{kindOf(id)}: </span>}
                <span>{id.value}</span>
                <CopyButton text={id.value} />
              </div>
              <div className={`${list.description} ${styles.note}`}>{id.system || t('patients.identifierNoSystem')}</div>
            </div>
          </li>
        ))}
      </ul>
    </Card>
  )
}
