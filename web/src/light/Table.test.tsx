// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { initI18n } from '../lib/i18n'
import { axeViolations } from '../test/axe'
import { Table, type Column, type Sort } from './Table'

beforeAll(() => initI18n('en'))

interface Person {
  id: number
  name: string
  age: number
}

const people: Person[] = [
  { id: 1, name: 'An', age: 40 },
  { id: 2, name: 'Binh', age: 7 },
]

const columns: Column<Person>[] = [
  { key: 'name', header: 'Name', cell: (p) => <a href={`/p/${p.id}`}>{p.name}</a>, sortable: true },
  { key: 'age', header: 'Age', cell: (p) => String(p.age), from: 'md', width: 80, sortable: true },
]

/** The table sorted on the page, as a screen would ask its server. */
function Sorted() {
  const [sort, setSort] = useState<Sort | null>(null)
  const rows = sort ? [...people].sort((a, b) => (sort.key === 'age' ? a.age - b.age : a.name.localeCompare(b.name)) * (sort.order === 'ascending' ? 1 : -1)) : people
  return <Table columns={columns} rows={rows} rowKey={(p) => p.id} label="People" sort={sort} onSort={setSort} />
}

const bodyRows = (table: HTMLElement) => within(table).getAllByRole('row').slice(1)

describe('Table', () => {
  it('is a named table with column headers and a row of cells for each row', async () => {
    const { container } = render(
      <>
        <h2 id="title">People</h2>
        <Table columns={columns} rows={people} rowKey={(p) => p.id} labelledBy="title" />
      </>,
    )
    const table = screen.getByRole('table', { name: 'People' })
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Age'])
    expect(within(table).getAllByRole('columnheader').every((h) => h.getAttribute('scope') === 'col')).toBe(true)
    expect(bodyRows(table).map((r) => within(r).getAllByRole('cell').map((c) => c.textContent))).toEqual([
      ['An', '40'],
      ['Binh', '7'],
    ])
    expect(within(table).getByRole('link', { name: 'Binh' }).getAttribute('href')).toBe('/p/2')
    expect(table.getAttribute('aria-busy')).toBe('false')
    expect(await axeViolations(container)).toEqual([])
  })

  it('marks a column hidden under its breakpoint on its header and cells alike', () => {
    render(<Table columns={columns} rows={people} rowKey={(p) => p.id} label="People" />)
    const header = screen.getByRole('columnheader', { name: 'Age' })
    expect(header.className).not.toBe('')
    expect(screen.getByRole('cell', { name: '40' }).className).toBe(header.className)
    expect(screen.getByRole('cell', { name: 'An' }).className).toBe('')
  })

  it('sorts by a header’s button, ascending then descending, and says so with aria-sort', async () => {
    const { container } = render(<Sorted />)
    const table = screen.getByRole('table', { name: 'People' })
    const age = screen.getByRole('columnheader', { name: 'Age' })
    // Only the sorted header says how it is sorted; one not sorted says nothing (APG's table).
    expect(age.hasAttribute('aria-sort')).toBe(false)
    expect(age.querySelectorAll('svg')).toHaveLength(2)
    fireEvent.click(within(age).getByRole('button', { name: 'Age' }))
    expect(age.getAttribute('aria-sort')).toBe('ascending')
    // The order is drawn by the caret's shape (one caret left), not by its colour alone.
    expect(age.querySelectorAll('svg')).toHaveLength(1)
    expect(bodyRows(table).map((r) => r.textContent)).toEqual(['Binh7', 'An40'])
    fireEvent.click(within(age).getByRole('button', { name: 'Age' }))
    expect(age.getAttribute('aria-sort')).toBe('descending')
    expect(bodyRows(table).map((r) => r.textContent)).toEqual(['An40', 'Binh7'])
    expect(screen.getByRole('columnheader', { name: 'Name' }).hasAttribute('aria-sort')).toBe(false)
    expect(await axeViolations(container)).toEqual([])
  })

  it('sorts from the keyboard: the sort control is a native button', () => {
    const onSort = vi.fn()
    render(<Table columns={columns} rows={people} rowKey={(p) => p.id} label="People" onSort={onSort} />)
    const button = screen.getByRole('button', { name: 'Name' })
    expect(button.tagName).toBe('BUTTON')
    expect(button).toHaveProperty('type', 'button')
    button.focus()
    expect(document.activeElement).toBe(button)
    // A native button turns Enter and Space into a click; jsdom does not, so the click stands for them.
    fireEvent.click(button)
    expect(onSort).toHaveBeenCalledWith({ key: 'name', order: 'ascending' })
  })

  it('shows the empty state outside the rows, and loading while busy', async () => {
    const { container, rerender } = render(<Table columns={columns} rows={[]} rowKey={(p) => p.id} label="People" empty="No one matches." />)
    expect(screen.getByText('No one matches.')).toBeTruthy()
    expect(within(screen.getByRole('table')).getAllByRole('row')).toHaveLength(1)
    expect(await axeViolations(container)).toEqual([])
    rerender(<Table columns={columns} rows={undefined} rowKey={(p) => p.id} label="People" empty="No one matches." loading />)
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true')
    expect(screen.getByText('Loading…')).toBeTruthy()
    rerender(<Table columns={columns} rows={people} rowKey={(p) => p.id} label="People" loading />)
    expect(screen.getByRole('table').getAttribute('aria-busy')).toBe('true')
    expect(screen.queryByText('Loading…')).toBeNull()
  })

  it('re-renders no row whose data and columns are the same', () => {
    const cell = vi.fn((p: Person) => p.name)
    const cols: Column<Person>[] = [{ key: 'name', header: 'Name', cell }]
    const { rerender } = render(<Table columns={cols} rows={people} rowKey={(p) => p.id} label="People" />)
    expect(cell).toHaveBeenCalledTimes(2)
    rerender(<Table columns={cols} rows={[...people]} rowKey={(p) => p.id} label="People" loading />)
    expect(cell).toHaveBeenCalledTimes(2)
    rerender(<Table columns={cols} rows={[people[0], { ...people[1], name: 'Binh Tran' }]} rowKey={(p) => p.id} label="People" />)
    expect(cell).toHaveBeenCalledTimes(3)
    expect(screen.getByText('Binh Tran')).toBeTruthy()
  })

  it('gives a row the class asked for (a muted row), and wraps its cells when asked', () => {
    render(<Table columns={columns} rows={people} rowKey={(p) => p.id} label="People" rowClass={(p) => (p.age < 18 ? 'emr-row-muted' : undefined)} wrap />)
    const table = screen.getByRole('table', { name: 'People' })
    expect(bodyRows(table).map((r) => r.className)).toEqual(['', 'emr-row-muted'])
    expect(table.className).toMatch(/wrapText/)
  })

  it('opens a row to show more under it by a named toggle that says whether it is open, for the rows that have more', async () => {
    const more = (p: Person) => <p>{`${p.name} is ${p.age}`}</p>
    const expandable = { render: more, can: (p: Person) => p.age > 10 }
    const { container } = render(<Table columns={columns} rows={people} rowKey={(p) => p.id} label="People" expandable={expandable} />)
    const table = screen.getByRole('table', { name: 'People' })
    // Only An has more; Binh's row has no toggle.
    const toggle = within(table).getByRole('button', { name: 'Expand row' })
    expect(within(table).getAllByRole('button', { name: 'Expand row' })).toHaveLength(1)
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByText('An is 40')).toBeNull()
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    // One name, its state said by aria-expanded alone (not "Collapse row, expanded").
    expect(toggle.getAttribute('aria-label')).toBe('Expand row')
    // Under its row, across the table.
    const opened = screen.getByText('An is 40').closest('td')!
    expect(opened.colSpan).toBe(columns.length + 1)
    expect(opened.closest('tr')!.previousElementSibling).toBe(toggle.closest('tr'))
    expect(await axeViolations(container)).toEqual([])
    fireEvent.click(toggle)
    expect(screen.queryByText('An is 40')).toBeNull()
  })

  it('wider than its box (a phone), scrolls in a named region the keyboard reaches; fitting, adds no stop (an accessibility review)', async () => {
    let wide = true
    const sizes = { scrollWidth: () => (wide ? 800 : 300), clientWidth: () => 300 }
    const restore = Object.entries(sizes).map(([name, get]) => {
      const was = Object.getOwnPropertyDescriptor(HTMLElement.prototype, name)
      Object.defineProperty(HTMLElement.prototype, name, { configurable: true, get })
      return () => (was ? Object.defineProperty(HTMLElement.prototype, name, was) : delete (HTMLElement.prototype as unknown as Record<string, unknown>)[name])
    })
    vi.stubGlobal(
      'ResizeObserver',
      class {
        cb: () => void
        constructor(cb: () => void) {
          this.cb = cb
        }
        observe() {
          this.cb()
        }
        disconnect() {}
      },
    )
    try {
      const { container, unmount } = render(<Table columns={columns} rows={people} rowKey={(p) => p.id} label="People" />)
      const region = screen.getByRole('region', { name: 'People' })
      expect(region.tabIndex).toBe(0)
      expect(region.contains(screen.getByRole('table', { name: 'People' }))).toBe(true)
      expect(await axeViolations(container)).toEqual([])
      unmount()
      wide = false
      render(<Table columns={columns} rows={people} rowKey={(p) => p.id} label="People" />)
      expect(screen.queryByRole('region')).toBeNull()
    } finally {
      vi.unstubAllGlobals()
      restore.forEach((r) => r())
    }
  })
})
