import { memo, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { StarButton } from '../../../components/StarButton'
import { usePicks } from '../../../lib/charting'
import { testKindLabel } from '../../../lib/labels'
import { Alert } from '../../../light/Alert'
import { Button } from '../../../light/Button'
import { Combobox, type ComboboxOption } from '../../../light/Combobox'
import { PlusIcon } from '../../../light/icons'
import { Input } from '../../../light/Input'
import type { LabTest, Order } from '../api/types'
import { useDraftError, useDraftRows, useDraftValue } from './draft'
import { RemoveButton } from './RemoveButton'
import { Cell, Section } from './Section'
import styles from './visit.module.css'
import { useVisitDraft } from './VisitFormProvider'

/** The tests a row offers (grouped: the doctor's favourites and most used, then by kind), and each one's name. */
interface Catalogue {
  options: ComboboxOption[]
  nameOf: (code: string) => string
}

/**
 * Laboratory, imaging and functional orders, from the catalogue (tests: undefined for whoever may not
 * order, who still reads the ordered ones by name). Inside the visit's form.
 */
export const OrdersCard = memo(function OrdersCard({ disabled, tests, ordered, onChange }: { disabled: boolean; tests: LabTest[] | undefined; ordered: Order[]; onChange: () => void }) {
  const { t } = useTranslation()
  const draft = useVisitDraft()
  const rows = useDraftRows(draft, 'orders')
  const picks = usePicks(!!tests)
  // The doctor's favourites and most used first, then every test by kind (starred favourites marked).
  const catalogue = useMemo((): Catalogue => {
    const first = (picks.data?.tests ?? []).filter((p) => tests?.some((x) => x.code === p.ref))
    const starred = new Set(first.filter((p) => p.favourite).map((p) => p.ref))
    const option = (value: string, label: string, group: string) => ({ value, label: starred.has(value) ? `★ ${label}` : label, group })
    const options = tests
      ? [
          ...first.map((p) => option(p.ref, p.label, t('favourites.group'))),
          ...(['lab', 'imaging', 'functional'] as const).flatMap((kind) =>
            tests.filter((x) => x.kind === kind && !first.some((p) => p.ref === x.code)).map((x) => option(x.code, x.label, t(testKindLabel[kind]))),
          ),
        ]
      : ordered.map((o) => option(o.code, o.label || o.code, t('visit.sections.orders')))
    const names = new Map([...ordered.map((o) => [o.code, o.label || o.code] as const), ...(tests ?? []).map((x) => [x.code, x.label] as const)])
    return { options, nameOf: (code) => names.get(code) ?? code }
  }, [tests, ordered, picks.data, t])
  return (
    <Section id="visit-orders" title={t('visit.sections.orders')}>
      {rows.length === 0 && <p className={styles.none}>{t('visit.noOrders')}</p>}
      {rows.map((key, i) => (
        <OrderRow key={key} index={i} disabled={disabled} starrable={!!tests} catalogue={catalogue} onRemove={onChange} />
      ))}
      {!disabled && <Overlaps tests={tests} nameOf={catalogue.nameOf} />}
      {!disabled && (
        <Button data-action="add-test" icon={<PlusIcon />} onClick={() => draft.add('orders', { code: '', note: '' })}>
          {t('visit.addOrder')}
        </Button>
      )}
    </Section>
  )
})

/**
 * A panel ordered with a test it already reports (CMP with BMP): said where it is typed, as the
 * desk is told on the bill, so the member is not drawn and charged twice by accident.
 */
function Overlaps({ tests, nameOf }: { tests: LabTest[] | undefined; nameOf: (code: string) => string }) {
  const { t } = useTranslation()
  const orders = useDraftValue<{ code?: string }[] | undefined>(useVisitDraft(), 'orders')
  const codes = new Set((orders ?? []).map((o) => o?.code).filter(Boolean))
  const overlaps = (tests ?? []).filter((p) => codes.has(p.code)).flatMap((p) => (p.includes ?? []).filter((m) => codes.has(m)).map((m) => ({ panel: p.code, member: m })))
  return overlaps.map((o) => (
    <div key={`${o.panel}-${o.member}`} className={styles.overlap}>
      <Alert type="warning" data-testid="order-overlap" title={t('visit.orderIncluded', { member: nameOf(o.member), panel: nameOf(o.panel) })} />
    </div>
  ))
}

/** A test ordered and its note; the test is chosen from the catalogue, searched by its name. */
const OrderRow = memo(function OrderRow({ index, disabled, starrable, catalogue, onRemove }: { index: number; disabled: boolean; starrable: boolean; catalogue: Catalogue; onRemove: () => void }) {
  const { t } = useTranslation()
  const draft = useVisitDraft()
  const at = `orders.${index}`
  const code = useDraftValue<string | undefined>(draft, `${at}.code`)
  const note = useDraftValue<string | undefined>(draft, `${at}.note`)
  const codeError = useDraftError(draft, `${at}.code`)
  const noteError = useDraftError(draft, `${at}.note`)
  // What is typed to search, until a test is chosen or the field is left (it shows the chosen test's name again).
  const [typed, setTyped] = useState<string | null>(null)
  const name = code ? catalogue.nameOf(code) : ''
  const q = typed?.trim().toLowerCase()
  const found = q ? catalogue.options.filter((o) => o.label.toLowerCase().includes(q)) : catalogue.options
  return (
    <div className={`${styles.row} ${styles.orderRow}`}>
      <Cell error={codeError} className={styles.wide}>
        {(c) =>
          disabled ? (
            <Input {...c} disabled value={name} placeholder={t('visit.testPlaceholder')} aria-label={t('visit.test')} />
          ) : (
            <div onBlur={() => setTyped(null)}>
              <Combobox
                {...c}
                field
                activateFirst
                label={t('visit.test')}
                placeholder={t('visit.testPlaceholder')}
                query={typed ?? name}
                onQueryChange={setTyped}
                options={found}
                onChoose={(v) => {
                  setTyped(null)
                  draft.set(`${at}.code`, v)
                }}
              />
            </div>
          )
        }
      </Cell>
      <Cell error={noteError}>
        {(c) => <Input {...c} placeholder={t('visit.orderNote')} aria-label={t('visit.orderNote')} maxLength={300} disabled={disabled} value={note ?? ''} onChange={(e) => draft.set(`${at}.note`, e.target.value)} />}
      </Cell>
      <div className={styles.actions}>
        {code && starrable && !disabled ? <StarButton kind="test" refId={code} name={catalogue.nameOf(code)} /> : null}
        {!disabled && (
          <RemoveButton
            label={t('visit.removeOrder')}
            onClick={() => {
              draft.remove('orders', index)
              onRemove()
            }}
          />
        )}
      </div>
    </div>
  )
})
