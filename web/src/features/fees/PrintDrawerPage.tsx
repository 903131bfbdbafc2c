import { Radio, Result, Spin } from 'antd'
import { useState } from 'react'
import { useTranslation } from 'react-i18next'
import { useParams } from 'react-router'
import styles from '../../components/print/print.module.css'
import { PrintFrame } from '../../components/print/PrintFrame'
import { ApiError } from '../../lib/api'
import { useClinic, type Clinic } from '../../lib/clinic'
import { paperDayTime } from '../../lib/time'
import type { Drawer } from './api/drawers'
import { useDrawer } from './api/getDrawer'
import { useMoney, type Money } from './bill/useMoney'
import { Difference } from './Difference'
import { pageSize, storedPaper, type Paper } from './print/paper'

// A drawer's count prints on A4 or the roll, not A5.
const DRAWER_PAPERS: Paper[] = ['A4', 'roll']

/** /fees/drawers/:id/print — a drawer's cash-up on A4 or an 80 mm roll, for the cashier and her supervisor to sign. */
export default function PrintDrawerPage() {
  const { t } = useTranslation()
  const { data: drawer, error, isLoading } = useDrawer(Number(useParams().id))
  const { data: clinic } = useClinic()
  const [paper, setPaper] = useState<Paper>(() => storedPaper('drawerPaper', 'roll'))
  const money = useMoney(drawer?.currency ?? 'USD', drawer?.minor_units ?? 2)
  if (isLoading) return <Spin />
  if (error || !drawer) return <Result status="404" title={error instanceof ApiError ? error.message : t('cashUp.notFound')} />
  const sheet = (testId?: string) => <DrawerSheet drawer={drawer} clinic={clinic} paper={paper} money={money} testId={testId} />
  return (
    <PrintFrame
      size={pageSize(paper)}
      margin={paper === 'roll' ? '3mm' : '10mm'}
      controls={
        <Radio.Group
          value={paper}
          onChange={(e) => (setPaper(e.target.value as Paper), localStorage.setItem('drawerPaper', e.target.value as string))}
          optionType="button"
          options={DRAWER_PAPERS.map((p) => ({ value: p, label: p === 'roll' ? t('bill.roll') : p }))}
          aria-label={t('rx.paper')}
        />
      }
      // A drawer's count is a report: nothing to record before it prints.
      action={{ label: t('bill.print'), onPrint: () => window.print() }}
      sheet={sheet}
      testId="drawer-sheet"
    />
  )
}

function DrawerSheet({ drawer: d, clinic, paper, money, testId }: { drawer: Drawer; clinic?: Clinic; paper: Paper; money: Money; testId?: string }) {
  const { t } = useTranslation()
  const row = (label: string, value: string, strong = false) => (
    <>
      <dt>{strong ? <strong>{label}</strong> : label}</dt>
      <dd>{strong ? <strong>{value}</strong> : value}</dd>
    </>
  )
  return (
    <article className={`${styles.sheet} ${styles[paper]}`} aria-label={t('cashUp.sheetTitle')} data-testid={testId}>
      <header className={styles.header}>
        <div className={styles.clinic}>{clinic?.name || t('app.name')}</div>
      </header>
      <h2 className={styles.title}>{t('cashUp.sheetTitle')}</h2>
      <div className={styles.patient}>
        <div>
          {t('bill.cashier')}: <strong>{d.cashier}</strong>
        </div>
        <div>{t('cashUp.openedAt', { when: paperDayTime(d.opened_at) })}</div>
        <div>{d.closed_at ? t('cashUp.closedBy', { when: paperDayTime(d.closed_at), by: d.closed_by }) : t('cashUp.stillOpen')}</div>
      </div>
      <dl className={styles.sums} style={{ gridTemplateColumns: '1fr auto' }}>
        {row(t('cashUp.float'), money.format(d.opening_float))}
        {row(t('cashUp.cashReceived'), money.format(d.cash_received ?? 0))}
        {(d.cash_refunded ?? 0) > 0 && row(t('cashUp.cashRefunded'), `−${money.format(d.cash_refunded ?? 0)}`)}
        {row(t('cashUp.drawerCash'), money.format(d.drawer_cash ?? 0), true)}
        {d.count_expected != null && d.count_expected !== d.drawer_cash && row(t('cashUp.countExpected'), money.format(d.count_expected))}
        {d.counted != null && row(t('cashUp.counted'), money.format(d.counted))}
        {d.counted != null && (
          <>
            <dt>{t('cashUp.difference')}</dt>
            <dd>
              <Difference value={d.difference ?? 0} money={money} />
            </dd>
          </>
        )}
        {d.counted != null && d.first_count != null && d.first_count !== d.counted && row(t('cashUp.firstCount'), money.format(d.first_count))}
        {d.acknowledged_by && row(t('cashUp.acknowledgedBy'), d.acknowledged_by)}
        {d.other.map((m) => row(t('cashUp.otherMethod', { method: t(`bill.methods.${m.method}`) }), money.format(m.net)))}
      </dl>
      {d.count_note && (
        <p>
          {t('cashUp.cashierNote')}: {d.count_note}
        </p>
      )}
      {d.note && <p>{d.note}</p>}
      <div className={styles.signatures}>
        {[t('bill.cashier'), t('cashUp.supervisor')].map((who) => (
          <div key={who}>
            <div style={{ height: 36 }} />
            <div className={styles.signatureLine}>{who}</div>
          </div>
        ))}
      </div>
    </article>
  )
}
