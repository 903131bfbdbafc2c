// A light pager: the total, the page numbers (the first, the last and two either side of the
// current one, one on a phone's narrow screen, a "…" button between that jumps five pages),
// previous and next, and the page size — a <nav> of native buttons and a labelled <select>, the
// current page marked aria-current="page". Previous and next at the ends are aria-disabled, not
// disabled, so a keyboard user pressing them keeps their place (a disabled button drops focus).
import { useSyncExternalStore, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { LeftIcon, RightIcon } from './icons'
import styles from './Pager.module.css'

export interface PagerProps {
  page: number
  pageSize: number
  total: number
  /** The sizes to choose from; one alone (a card's short list) leaves the choice out, as the library's small pager did. */
  pageSizes: number[]
  /** A page or a page size chosen; a new size starts again from page 1. */
  onChange: (page: number, pageSize: number) => void
  /** The total as the screen words it ("42 patients"); none shown when absent. */
  totalText?: string
  /** The navigation landmark's name, when a screen has more than one pager. */
  label?: string
}

/** Pages a "…" jumps. */
const JUMP = 5

/** The page numbers to show, `around` either side of the current one, with null for a gap: 1 … 4 5 6 7 8 … 20. */
export function pageItems(page: number, pages: number, around = 2): (number | null)[] {
  if (pages <= 2 * around + 3) return Array.from({ length: pages }, (_, i) => i + 1)
  const from = Math.max(2, Math.min(page - around, pages - 2 * around))
  const to = Math.min(pages - 1, Math.max(page + around, 1 + 2 * around))
  const items: (number | null)[] = [1]
  if (from > 2) items.push(null)
  for (let p = from; p <= to; p++) items.push(p)
  if (to < pages - 1) items.push(null)
  items.push(pages)
  return items
}

/** A phone's narrow screen (under Ant Design's sm breakpoint, where its pager shows fewer pages too). */
const NARROW = '(max-width: 575.98px)'
const subscribe = (change: () => void) => {
  const query = window.matchMedia(NARROW)
  query.addEventListener('change', change)
  return () => query.removeEventListener('change', change)
}
const narrow = () => window.matchMedia(NARROW).matches

/** Previous or next: at the end it is aria-disabled (a disabled button would drop the focus). */
function Step({ name, off, onStep, children }: { name: string; off: boolean; onStep: () => void; children: ReactNode }) {
  return (
    <button type="button" className={styles.step} aria-label={name} title={name} aria-disabled={off} onClick={() => !off && onStep()}>
      {children}
    </button>
  )
}

/** A "…" that jumps JUMP pages back or forward. */
function Jump({ to, back, onJump }: { to: number; back: boolean; onJump: (page: number) => void }) {
  const { t } = useTranslation()
  const name = t(back ? 'light.pager.back' : 'light.pager.forward', { count: JUMP })
  return (
    <button type="button" className={[styles.item, styles.gap].join(' ')} aria-label={name} title={name} onClick={() => onJump(to)}>
      …
    </button>
  )
}

export function Pager({ page, pageSize, total, pageSizes, onChange, totalText, label }: PagerProps) {
  const { t, i18n } = useTranslation()
  const pages = Math.max(1, Math.ceil(total / pageSize))
  const around = useSyncExternalStore(subscribe, narrow, () => false) ? 1 : 2
  const number = new Intl.NumberFormat(i18n.language)
  const items = pageItems(page, pages, around)
  const here = items.indexOf(page)
  const first = page <= 1
  const last = page >= pages
  return (
    <nav className={styles.pager} aria-label={label ?? t('light.pager.label')}>
      {totalText && <span className={styles.total}>{totalText}</span>}
      <span className={styles.steps}>
        <Step name={t('light.pager.previous')} off={first} onStep={() => onChange(page - 1, pageSize)}>
          <LeftIcon />
        </Step>
        <ul className={styles.pages}>
          {items.map((p, i) =>
            p === null ? (
              <li key={`gap${i}`}>
                {/* The gap before the current page jumps back, the one after it forward. */}
                <Jump to={i < here ? Math.max(1, page - JUMP) : Math.min(pages, page + JUMP)} back={i < here} onJump={(p) => onChange(p, pageSize)} />
              </li>
            ) : (
              <li key={p}>
                <button
                  type="button"
                  className={[styles.item, p === page ? styles.current : ''].join(' ')}
                  aria-label={t('light.pager.page', { page: number.format(p) })}
                  aria-current={p === page ? 'page' : undefined}
                  onClick={() => p !== page && onChange(p, pageSize)}
                >
                  {number.format(p)}
                </button>
              </li>
            ),
          )}
        </ul>
        <Step name={t('light.pager.next')} off={last} onStep={() => onChange(page + 1, pageSize)}>
          <RightIcon />
        </Step>
      </span>
      {pageSizes.length > 1 && (
        <select className={styles.size} aria-label={t('light.pager.perPage')} value={pageSize} onChange={(e) => onChange(1, Number(e.target.value))}>
          {pageSizes.map((n) => (
            <option key={n} value={n}>
              {t('light.pager.perPageOption', { count: n })}
            </option>
          ))}
        </select>
      )}
    </nav>
  )
}
