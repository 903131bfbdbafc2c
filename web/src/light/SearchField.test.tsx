// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { initI18n } from '../lib/i18n'
import { axeViolations } from '../test/axe'
import { SearchField } from './SearchField'

beforeAll(() => initI18n('en'))

describe('SearchField', () => {
  it('is a labelled searchbox in a search landmark that starts with its value', async () => {
    const { container } = render(<SearchField label="Search patients" placeholder="Name" defaultValue="nguyen" onSearch={() => {}} />)
    expect(screen.getByRole('search')).toBeTruthy()
    const box = screen.getByRole('searchbox', { name: 'Search patients' }) as HTMLInputElement
    expect(box.value).toBe('nguyen')
    expect(box.placeholder).toBe('Name')
    expect(screen.getByRole('button', { name: 'Search' })).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })

  it('tells each change, and searches now on Enter and on the button', () => {
    const onChange = vi.fn()
    const onSearch = vi.fn()
    render(<SearchField label="Search patients" onChange={onChange} onSearch={onSearch} />)
    const box = screen.getByRole('searchbox', { name: 'Search patients' })
    fireEvent.input(box, { target: { value: 'an' } })
    expect(onChange).toHaveBeenLastCalledWith('an')
    expect(onSearch).not.toHaveBeenCalled()
    fireEvent.submit(box.closest('form')!)
    expect(onSearch).toHaveBeenLastCalledWith('an')
    fireEvent.input(box, { target: { value: 'anh' } })
    fireEvent.click(screen.getByRole('button', { name: 'Search' }))
    expect(onSearch).toHaveBeenLastCalledWith('anh')
    expect(onSearch).toHaveBeenCalledTimes(2)
  })

  it('offers a keyboard-reachable "Clear the field" once there is text, which empties it and searches at once', async () => {
    const onSearch = vi.fn()
    const { container } = render(<SearchField label="Search patients" onSearch={onSearch} />)
    expect(screen.queryByRole('button', { name: 'Clear the field' })).toBeNull()
    const box = screen.getByRole('searchbox', { name: 'Search patients' }) as HTMLInputElement
    fireEvent.input(box, { target: { value: 'nguyen' } })
    const clear = screen.getByRole('button', { name: 'Clear the field' })
    expect(clear.getAttribute('type')).toBe('button') // never submits the form
    expect(await axeViolations(container)).toEqual([])
    fireEvent.click(clear)
    expect(box.value).toBe('')
    expect(document.activeElement).toBe(box)
    expect(onSearch).toHaveBeenLastCalledWith('')
    expect(screen.queryByRole('button', { name: 'Clear the field' })).toBeNull()
  })

  it('shows a new query from outside, but keeps what is typed when the query is that text', () => {
    const onSearch = vi.fn()
    const { rerender } = render(<SearchField label="Search patients" defaultValue="an" onSearch={onSearch} />)
    const box = screen.getByRole('searchbox', { name: 'Search patients' }) as HTMLInputElement
    rerender(<SearchField label="Search patients" defaultValue="lê" onSearch={onSearch} />)
    expect(box.value).toBe('lê')
    fireEvent.input(box, { target: { value: 'nguyen ' } })
    // The debounced search of "nguyen " comes back trimmed: the space being typed stays.
    rerender(<SearchField label="Search patients" defaultValue="nguyen" onSearch={onSearch} />)
    expect(box.value).toBe('nguyen ')
  })
})
