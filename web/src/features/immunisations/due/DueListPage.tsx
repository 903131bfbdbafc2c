// The clinic's immunisation due list (issue 59): each child's next dose per antigen, due or
// overdue as of the clinic's today, filtered by status, antigen and age band, in pages by key;
// the desk selects children and sends their families a reminder, and sees what was queued and
// what was skipped and why. A light screen: no Ant Design.
import { useId, useMemo, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { Link } from 'react-router'
import { useCan } from '../../../lib/auth/can'
import { formatDay, formatDayTime } from '../../../lib/time'
import { Button } from '../../../light/Button'
import { Card } from '../../../light/Card'
import { Select } from '../../../light/Input'
import { Segmented } from '../../../light/Segmented'
import { Table, type Column } from '../../../light/Table'
import { Tag } from '../../../light/Tag'
import { BANDS, COUNT_CAP, STATUSES, useAntigens, useDueList, type Band, type DueFilter, type DueItem, type DuePage, type DueStatus, type RemindResult } from '../api/due'
import { useRemind } from '../api/remindDue'
import styles from './DueListPage.module.css'

/** A child's age on day asOf: months under two years, years from two. */
function ageOf(birth: string, asOf: string): { months?: number; years?: number } {
  const [by, bm, bd] = birth.split('-').map(Number)
  const [ty, tm, td] = asOf.split('-').map(Number)
  let months = (ty! - by!) * 12 + (tm! - bm!)
  if (td! < bd!) months--
  return months < 24 ? { months: Math.max(0, months) } : { years: Math.floor(months / 12) }
}

const chartLink = (it: DueItem) => `/masterfile/profile/${it.patient_id}/${it.mrn}`

export default function DueListPage() {
  const { t } = useTranslation()
  const reminding = useRemind()
  const canSend = useCan('send messages')
  const [filter, setFilter] = useState<DueFilter>({ status: 'all', antigen: '', band: '', after: '' })
  const [pages, setPages] = useState<string[]>([]) // the cursors of the pages before this one
  const [selected, setSelected] = useState<ReadonlySet<number>>(() => new Set())
  const [sending, setSending] = useState(false)
  const [outcome, setOutcome] = useState<RemindResult>()
  const list = useDueList(filter)
  const antigens = useAntigens()
  const headingId = useId()
  const antigenId = useId()
  const bandId = useId()
  const items = list.data?.items
  const asOf = list.data?.as_of ?? ''

  const change = (next: Partial<DueFilter>) => {
    setFilter((f) => ({ ...f, ...next, after: '' }))
    setPages([])
  }
  const toggle = (id: number, on: boolean) =>
    setSelected((was) => {
      const next = new Set(was)
      if (on) next.add(id)
      else next.delete(id)
      return next
    })
  const pageIDs = useMemo(() => [...new Set((items ?? []).map((it) => it.patient_id))], [items])
  const allOnPage = pageIDs.length > 0 && pageIDs.every((id) => selected.has(id))
  const names = useMemo(() => new Map((items ?? []).map((it) => [it.patient_id, it.name])), [items])

  const antigenOptions = useMemo(() => {
    const known = new Map<string, string>((antigens.data?.antigens ?? []).map((a) => [a.key, a.name]))
    for (const it of items ?? []) if (!known.has(it.antigen)) known.set(it.antigen, it.antigen_name)
    if (filter.antigen && !known.has(filter.antigen)) known.set(filter.antigen, filter.antigen)
    return [...known].sort((a, b) => a[1].localeCompare(b[1]))
  }, [antigens.data, items, filter.antigen])

  const sendReminders = async () => {
    setSending(true)
    try {
      const result = await reminding.mutateAsync([...selected])
      setOutcome(result)
      setSelected(new Set())
    } catch {
      // the API client has shown the server's message
    } finally {
      setSending(false)
    }
  }

  const antigenOf = (it: DueItem, marked: boolean) => (
    <span className={styles.dates}>
      <span>{it.antigen_name}</span>
      <span className={styles.muted}>{t('immunisationDue.doseN', { n: it.dose_number })}</span>
      {it.outside_programme && (
        <Tag color="purple" data-testid={marked ? 'outside-programme' : undefined}>
          {t('immunisations.outsideProgramme')}
        </Tag>
      )}
    </span>
  )
  const dueOf = (it: DueItem) => (
    <span className={styles.dates}>
      <Tag color={it.status === 'overdue' ? 'red' : it.status === 'due' ? 'gold' : 'default'}>{t(`immunisationDue.status.${it.status}`)}</Tag>
      {/* Each line whole: the cell is as wide as its longest line, not the column's words. */}
      <span className={styles.nowrap}>{t('immunisationDue.dueOn', { date: formatDay(it.due_on) })}</span>
      <span className={`${styles.muted} ${styles.nowrap}`}>{t('immunisationDue.overdueOn', { date: formatDay(it.overdue_on) })}</span>
    </span>
  )
  const columns: Column<DueItem>[] = [
    {
      key: 'select',
      header: (
        <input
          type="checkbox"
          className={styles.check}
          aria-label={t('immunisationDue.selectPage')}
          checked={allOnPage}
          disabled={!canSend || pageIDs.length === 0}
          onChange={(e) => setSelected((was) => new Set(e.target.checked ? [...was, ...pageIDs] : [...was].filter((id) => !pageIDs.includes(id))))}
        />
      ),
      width: 36,
      cell: (it) => (
        <input
          type="checkbox"
          className={styles.check}
          aria-label={t('immunisationDue.select', { name: it.name })}
          checked={selected.has(it.patient_id)}
          disabled={!canSend}
          onChange={(e) => toggle(it.patient_id, e.target.checked)}
        />
      ),
    },
    {
      key: 'child',
      header: t('immunisationDue.child'),
      cell: (it) => (
        <span className={styles.dates}>
          <Link to={chartLink(it)}>{it.name}</Link>
          <span className={styles.muted}>{it.mrn}</span>
          {/* On a phone the antigen and the dates are said under the child (their columns are not shown): nothing scrolls sideways. */}
          <span className={`${styles.phoneOnly} ${styles.stack}`}>
            {antigenOf(it, false)}
            {dueOf(it)}
          </span>
        </span>
      ),
    },
    {
      key: 'age',
      header: t('immunisationDue.age'),
      width: 100,
      from: 'sm',
      nowrap: true,
      cell: (it) => {
        const a = ageOf(it.birth_date, asOf)
        return a.months !== undefined ? t('immunisationDue.ageMonths', { count: a.months }) : t('immunisationDue.ageYears', { count: a.years })
      },
    },
    {
      key: 'antigen',
      header: t('immunisationDue.antigen'),
      from: 'sm',
      cell: (it) => antigenOf(it, true),
    },
    {
      key: 'due',
      header: t('immunisationDue.dueDates'),
      from: 'sm',
      cell: dueOf,
    },
    {
      key: 'reminded',
      header: t('immunisationDue.lastReminded'),
      from: 'md',
      nowrap: true,
      cell: (it) => (it.last_reminded_at ? formatDayTime(it.last_reminded_at) : t('immunisationDue.never')),
    },
    {
      key: 'contact',
      header: t('immunisationDue.contact'),
      from: 'lg',
      cell: (it) =>
        it.contact.phone || it.contact.email ? (
          <span className={styles.dates}>
            {it.contact.phone && <span>{it.contact.phone}</span>}
            {it.contact.email && <span>{it.contact.email}</span>}
          </span>
        ) : (
          <span className={styles.muted}>{t('immunisationDue.noContact')}</span>
        ),
    },
  ]

  // The counts come with the first page; the next pages keep them.
  const [firstCounts, setFirstCounts] = useState<DuePage['counts']>(null)
  const counts = list.data?.counts ?? (filter.after ? firstCounts : null)
  if (list.data?.counts && list.data.counts !== firstCounts) setFirstCounts(list.data.counts)
  return (
    <Card title={t('route.immunisationDue')} titleId={headingId}>
      <div className={styles.filters}>
        <div className={styles.status}>
        <Segmented<DueStatus>
          label={t('immunisationDue.statusLabel')}
          value={filter.status}
          options={STATUSES.map((s) => ({
            value: s,
            label: counts && s !== 'all' ? `${t(`immunisationDue.statuses.${s}`)} (${counts[s]}${counts[s] >= COUNT_CAP ? '+' : ''})` : t(`immunisationDue.statuses.${s}`),
          }))}
          onChange={(status) => change({ status })}
        />
        </div>
        <div className={styles.field}>
          <label htmlFor={antigenId}>{t('immunisationDue.antigen')}</label>
          <Select<string>
            id={antigenId}
            className={styles.select}
            value={filter.antigen}
            options={[{ value: '', label: t('immunisationDue.anyAntigen') }, ...antigenOptions.map(([value, label]) => ({ value, label }))]}
            onChange={(antigen) => change({ antigen })}
          />
        </div>
        <div className={styles.field}>
          <label htmlFor={bandId}>{t('immunisationDue.band')}</label>
          <Select<Band | ''>
            id={bandId}
            className={styles.select}
            value={filter.band}
            options={[{ value: '', label: t('immunisationDue.anyBand') }, ...BANDS.map((b) => ({ value: b, label: t(`immunisationDue.bands.${b}`) }))]}
            onChange={(band) => change({ band })}
          />
        </div>
      </div>
      {canSend && (
        <div className={styles.actions}>
          <Button variant="primary" disabled={selected.size === 0} loading={sending} onClick={() => void sendReminders()}>
            {t('immunisationDue.send', { count: selected.size })}
          </Button>
          {selected.size > 0 && (
            <Button variant="link" onClick={() => setSelected(new Set())}>
              {t('immunisationDue.clear')}
            </Button>
          )}
        </div>
      )}
      <div role="status" className={styles.outcome} data-testid="remind-outcome">
        {outcome && (
          <>
            <strong>{t('immunisationDue.queued', { count: outcome.queued })}</strong>
            {outcome.skipped.length > 0 && (
              <>
                {' '}
                {t('immunisationDue.skipped', { count: outcome.skipped.length })}
                <ul className={styles.skipped}>
                  {outcome.skipped.map((s) => (
                    <li key={s.patient_id}>
                      {names.get(s.patient_id) ?? `#${s.patient_id}`}: {t(`immunisationDue.reasons.${s.reason}`)}
                    </li>
                  ))}
                </ul>
              </>
            )}
          </>
        )}
      </div>
      <Table
        columns={columns}
        rows={items}
        rowKey={(it) => `${it.patient_id}.${it.antigen}`}
        labelledBy={headingId}
        loading={list.isFetching}
        wrap
        empty={t('immunisationDue.empty')}
      />
      <nav className={styles.pager} aria-label={t('immunisationDue.pages')}>
        <Button
          disabled={pages.length === 0}
          onClick={() => {
            setFilter((f) => ({ ...f, after: pages.at(-1) ?? '' }))
            setPages((p) => p.slice(0, -1))
          }}
        >
          {t('immunisationDue.previous')}
        </Button>
        <Button
          disabled={!list.data?.next}
          onClick={() => {
            setPages((p) => [...p, filter.after])
            setFilter((f) => ({ ...f, after: list.data?.next ?? '' }))
          }}
        >
          {t('immunisationDue.next')}
        </Button>
      </nav>
    </Card>
  )
}
