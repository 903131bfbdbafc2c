// @vitest-environment jsdom
import { fireEvent, render, screen, within } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { initI18n } from '../lib/i18n'
import { axeViolations } from '../test/axe'
import { Pager, pageItems } from './Pager'

beforeAll(() => initI18n('en'))

describe('pageItems', () => {
  it('lists every page when there are few, else the ends and the current page’s neighbours', () => {
    expect(pageItems(1, 1)).toEqual([1])
    expect(pageItems(3, 7)).toEqual([1, 2, 3, 4, 5, 6, 7])
    expect(pageItems(1, 20)).toEqual([1, 2, 3, 4, 5, null, 20])
    expect(pageItems(10, 20)).toEqual([1, null, 8, 9, 10, 11, 12, null, 20])
    expect(pageItems(20, 20)).toEqual([1, null, 16, 17, 18, 19, 20])
    expect(pageItems(4, 20)).toEqual([1, 2, 3, 4, 5, 6, null, 20])
    // One either side on a phone.
    expect(pageItems(1, 20, 1)).toEqual([1, 2, 3, null, 20])
    expect(pageItems(10, 20, 1)).toEqual([1, null, 9, 10, 11, null, 20])
    expect(pageItems(3, 5, 1)).toEqual([1, 2, 3, 4, 5])
  })
})

describe('Pager', () => {
  const props = { total: 95, pageSize: 15, pageSizes: [10, 15, 20], totalText: '95 patients' }

  it('is a labelled nav with the total, the current page marked, and translated controls', async () => {
    const { container } = render(<Pager {...props} page={2} onChange={() => {}} />)
    const nav = screen.getByRole('navigation', { name: 'Pagination' })
    expect(within(nav).getByText('95 patients')).toBeTruthy()
    expect(within(nav).getByRole('button', { name: 'Page 2' }).getAttribute('aria-current')).toBe('page')
    expect(within(nav).getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBeNull()
    expect(within(nav).getAllByRole('button', { name: /^Page \d$/ })).toHaveLength(7)
    const size = within(nav).getByRole('combobox', { name: 'Rows per page' }) as HTMLSelectElement
    expect(size.value).toBe('15')
    expect([...size.options].map((o) => o.text)).toEqual(['10 / page', '15 / page', '20 / page'])
    expect(await axeViolations(container)).toEqual([])
  })

  it('offers no choice of size when there is one size (a card\'s short list)', async () => {
    const { container } = render(<Pager total={25} pageSize={10} pageSizes={[10]} page={1} onChange={() => {}} />)
    const nav = screen.getByRole('navigation', { name: 'Pagination' })
    expect(within(nav).queryByRole('combobox')).toBeNull()
    expect(within(nav).getAllByRole('button', { name: /^Page \d$/ })).toHaveLength(3)
    expect(await axeViolations(container)).toEqual([])
  })

  it('goes to a page, the previous and the next; a new size starts from page 1', () => {
    const onChange = vi.fn()
    render(<Pager {...props} page={2} onChange={onChange} />)
    fireEvent.click(screen.getByRole('button', { name: 'Page 5' }))
    expect(onChange).toHaveBeenLastCalledWith(5, 15)
    fireEvent.click(screen.getByRole('button', { name: 'Previous page' }))
    expect(onChange).toHaveBeenLastCalledWith(1, 15)
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    expect(onChange).toHaveBeenLastCalledWith(3, 15)
    fireEvent.change(screen.getByRole('combobox', { name: 'Rows per page' }), { target: { value: '20' } })
    expect(onChange).toHaveBeenLastCalledWith(1, 20)
    onChange.mockClear()
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }))
    expect(onChange).not.toHaveBeenCalled()
  })

  it('offers no page size where the size is fixed (a chart’s list of ten)', async () => {
    const onChange = vi.fn()
    const { container } = render(<Pager page={1} pageSize={10} total={25} onChange={onChange} />)
    expect(screen.queryByRole('combobox')).toBeNull()
    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }))
    expect(onChange).toHaveBeenLastCalledWith(3, 10)
    expect(await axeViolations(container)).toEqual([])
  })

  it('cannot go before the first page or past the last, and keeps the focus there', () => {
    const onChange = vi.fn()
    const { rerender } = render(<Pager {...props} page={1} onChange={onChange} />)
    const previous = screen.getByRole('button', { name: 'Previous page' })
    expect(previous.getAttribute('aria-disabled')).toBe('true')
    expect(screen.getByRole('button', { name: 'Next page' }).getAttribute('aria-disabled')).toBe('false')
    previous.focus()
    fireEvent.click(previous)
    expect(onChange).not.toHaveBeenCalled()
    // Next pressed on the last page but one: the button a keyboard user pressed keeps the focus.
    rerender(<Pager {...props} page={6} onChange={onChange} />)
    const next = screen.getByRole('button', { name: 'Next page' })
    next.focus()
    rerender(<Pager {...props} page={7} onChange={onChange} />)
    expect(next.getAttribute('aria-disabled')).toBe('true')
    expect(document.activeElement).toBe(next)
    fireEvent.click(next)
    expect(onChange).not.toHaveBeenCalled()
  })

  it('jumps five pages back or forward from a gap, named in the user’s language', async () => {
    const onChange = vi.fn()
    const english = render(<Pager {...props} total={300} page={10} onChange={onChange} />)
    fireEvent.click(screen.getByRole('button', { name: 'Back 5 pages' }))
    expect(onChange).toHaveBeenLastCalledWith(5, 15)
    fireEvent.click(screen.getByRole('button', { name: 'Forward 5 pages' }))
    expect(onChange).toHaveBeenLastCalledWith(15, 15)
    english.unmount()
    await initI18n('ru')
    render(<Pager {...props} total={300} page={19} onChange={onChange} />)
    fireEvent.click(screen.getByRole('button', { name: 'Назад на 5 страниц' }))
    expect(onChange).toHaveBeenLastCalledWith(14, 15)
    await initI18n('en')
  })

  it('writes page numbers as the language does', async () => {
    await initI18n('ru')
    render(<Pager {...props} total={20_000} pageSize={10} page={1500} onChange={() => {}} />)
    // Russian groups thousands with a (narrow) no-break space.
    expect(screen.getByRole('button', { name: /^Страница 1\s500$/ }).getAttribute('aria-current')).toBe('page')
    await initI18n('en')
  })

  it('speaks the user’s language', async () => {
    await initI18n('ru')
    render(<Pager {...props} page={1} onChange={() => {}} />)
    expect(screen.getByRole('navigation', { name: 'Страницы списка' })).toBeTruthy()
    expect(screen.getByRole('button', { name: 'Следующая страница' })).toBeTruthy()
    expect(screen.getByRole('combobox', { name: 'Строк на странице' })).toBeTruthy()
    await initI18n('en')
  })
})
