// A light table: a native <table> with column headers (th scope="col"), cells each column
// renders, optional sorting (aria-sort on the sorted header only, a button in it that Tab reaches and Enter
// or Space presses), an empty state, aria-busy while loading, and columns hidden under a
// breakpoint by a media query (Ant Design's breakpoints, so a screen hides what it hid before).
// Rows are memoised: a new render of the screen around the table (a keystroke in its search)
// re-renders no row whose data, columns and sort are the same. Rows can open to show more under
// them (an order's results under the order), by a toggle button at the row's start that says
// whether it is open (aria-expanded), as the library's expandable rows did.
import { memo, useCallback, useEffect, useRef, useState, type ReactNode } from 'react'
import { useTranslation } from 'react-i18next'
import { CaretDownIcon, CaretUpIcon, EmptyImage } from './icons'
import styles from './Table.module.css'

/** Ant Design's breakpoints: sm 576px, md 768px, lg 992px, xl 1200px. */
export type Breakpoint = 'sm' | 'md' | 'lg' | 'xl'
export type SortOrder = 'ascending' | 'descending'

export interface Column<T> {
  key: string
  header: ReactNode
  /** The cell's content for a row. */
  cell: (row: T) => ReactNode
  /** Width in pixels (a hint: the table still fits its content). */
  width?: number
  /** Shown only from this breakpoint up (Ant Design's `responsive: ['md']`). */
  from?: Breakpoint
  /** The column can be sorted: its header is a button. */
  sortable?: boolean
  /** Its header and cells at the end (amounts). */
  align?: 'end'
  /** Its cells never wrap (an amount kept whole). */
  nowrap?: boolean
}

export interface Sort {
  key: string
  order: SortOrder
}

export interface TableProps<T> {
  columns: Column<T>[]
  rows: T[] | undefined
  rowKey: (row: T) => string | number
  /** The table's name: the id of a heading that names it, or a label, or a visible caption. */
  labelledBy?: string
  label?: string
  caption?: ReactNode
  loading?: boolean
  /** Shown in place of rows when there are none. */
  empty?: ReactNode
  sort?: Sort | null
  /** A sortable header pressed: its key and the order asked for (ascending first, then descending). */
  onSort?: (sort: Sort) => void
  /** small: the library's small table (8 px cells), whatever the size setting. */
  size?: 'small'
  /** The empty state's picture (the library's); off where the empty text stands alone. */
  emptyImage?: boolean
  /** A row's class name (a cancelled appointment's muted row). */
  rowClass?: (row: T) => string | undefined
  /** The cells' text wraps so that the table fits the screen's width (scrolled sideways only where even wrapped it cannot), rather than each cell on one line. */
  wrap?: boolean
  /** Rows that open to show more under them, across the whole table; `can` says which rows have more (all, without it). */
  expandable?: Expandable<T>
}

export interface Expandable<T> {
  render: (row: T) => ReactNode
  can?: (row: T) => boolean
}

/** Whether an element is wider than its box, followed as the window or the content changes size. */
function useOverflow() {
  const ref = useRef<HTMLDivElement>(null)
  const [now, setNow] = useState(false)
  useEffect(() => {
    const box = ref.current
    if (!box || typeof ResizeObserver === 'undefined') return
    const measure = () => setNow(box.scrollWidth > box.clientWidth + 1)
    const observer = new ResizeObserver(measure)
    observer.observe(box)
    if (box.firstElementChild) observer.observe(box.firstElementChild)
    measure()
    return () => observer.disconnect()
  }, [])
  return [ref, now] as const
}

const hide: Record<Breakpoint, string> = { sm: styles.fromSm, md: styles.fromMd, lg: styles.fromLg, xl: styles.fromXl }
const columnClass = (c: { from?: Breakpoint; align?: 'end'; nowrap?: boolean }) =>
  [c.from ? hide[c.from] : '', c.align === 'end' ? styles.alignEnd : '', c.nowrap ? styles.nowrap : ''].filter(Boolean).join(' ') || undefined

export function Table<T>({ columns, rows, rowKey, labelledBy, label, caption, loading = false, empty, sort, onSort, size, emptyImage = true, rowClass, wrap = false, expandable }: TableProps<T>) {
  const { t } = useTranslation()
  const none = !rows || rows.length === 0
  const [opened, setOpened] = useState<ReadonlySet<string | number>>(() => new Set())
  const [scrollBox, overflows] = useOverflow()
  // Stable, so that opening one row re-renders that row only.
  const toggle = useCallback(
    (key: string | number) =>
      setOpened((was) => {
        const next = new Set(was)
        if (!next.delete(key)) next.add(key)
        return next
      }),
    [],
  )
  return (
    <div className={[styles.wrap, loading ? styles.busy : '', size === 'small' ? styles.small : ''].filter(Boolean).join(' ')}>
      {/* Wider than its box (a phone): the box scrolls, and is a named region the keyboard can reach and scroll (WCAG 2.1.1). */}
      <div
        ref={scrollBox}
        className={styles.scroll}
        {...(overflows ? { tabIndex: 0, role: 'region', 'aria-label': label, 'aria-labelledby': label ? undefined : labelledBy } : {})}
      >
        <table className={wrap ? `${styles.table} ${styles.wrapText}` : styles.table} aria-labelledby={labelledBy} aria-label={label} aria-busy={loading}>
          {caption && <caption className={styles.caption}>{caption}</caption>}
          <thead>
            <tr>
              {/* The toggles' column has no header of its own (a cell, not an empty column header). */}
              {expandable && <td className={styles.toggleCell} />}
              {columns.map((c) => {
                const order = sort?.key === c.key ? sort.order : undefined
                return (
                  <th key={c.key} scope="col" className={columnClass(c)} style={c.width ? { width: c.width } : undefined} aria-sort={order}>
                    {c.sortable ? (
                      <button type="button" className={styles.sort} onClick={() => onSort?.({ key: c.key, order: order === 'ascending' ? 'descending' : 'ascending' })}>
                        {c.header}
                        {/* Both carets, grey, until the column is sorted; then only its order's, in
                            the clinic's colour: the shape says the order, not the colour alone. */}
                        <span className={styles.carets} aria-hidden>
                          {order !== 'descending' && (
                            <span className={order === 'ascending' ? styles.on : undefined}>
                              <CaretUpIcon />
                            </span>
                          )}
                          {order !== 'ascending' && (
                            <span className={order === 'descending' ? styles.on : undefined}>
                              <CaretDownIcon />
                            </span>
                          )}
                        </span>
                      </button>
                    ) : (
                      c.header
                    )}
                  </th>
                )
              })}
            </tr>
          </thead>
          <tbody>
            {rows?.map((row) => {
              const key = rowKey(row)
              return <Row key={key} rowId={key} row={row} columns={columns} className={rowClass?.(row)} expandable={expandable} open={opened.has(key)} onToggle={toggle} />
            })}
          </tbody>
        </table>
      </div>
      {/* Outside the table, so that its rows are the data's only (a row count is the data's). */}
      {none && (
        <div className={styles.empty}>
          {loading ? (
            t('app.loading')
          ) : (
            <>
              {emptyImage && <EmptyImage />}
              <div>{empty}</div>
            </>
          )}
        </div>
      )}
    </div>
  )
}

interface RowProps<T> {
  row: T
  rowId: string | number
  columns: Column<T>[]
  className?: string
  expandable?: Expandable<T>
  open: boolean
  onToggle: (key: string | number) => void
}

function RowOf<T>({ row, rowId, columns, className, expandable, open, onToggle }: RowProps<T>) {
  const { t } = useTranslation()
  const can = expandable && (expandable.can?.(row) ?? true)
  return (
    <>
      <tr className={className}>
        {expandable && (
          <td className={styles.toggleCell}>
            {can && (
              <button type="button" className={styles.toggle} aria-expanded={open} aria-label={t('light.table.expand')} onClick={() => onToggle(rowId)}>
                <span aria-hidden>{open ? '−' : '+'}</span>
              </button>
            )}
          </td>
        )}
        {columns.map((c) => (
          <td key={c.key} className={columnClass(c)}>
            {c.cell(row)}
          </td>
        ))}
      </tr>
      {can && open && (
        <tr className={styles.expanded}>
          <td colSpan={columns.length + 1}>{expandable.render(row)}</td>
        </tr>
      )}
    </>
  )
}

const Row = memo(RowOf) as typeof RowOf
