// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { Combobox } from './Combobox'
import { Field } from './Field'

const pages = [
  { value: '/forms/blankPrescription', label: 'Forms > Blank Prescription' },
  { value: '/administrator/roles', label: 'Administrator > Roles & Permissions' },
]

function Search({ onChoose }: { onChoose: (v: string) => void }) {
  const [query, setQuery] = useState('')
  const options = query ? pages.filter((p) => p.label.toLowerCase().includes(query.toLowerCase())) : []
  return <Combobox label="Search pages" query={query} onQueryChange={setQuery} options={options} onChoose={onChoose} emptyText="No page matches" countText={(n) => `${n} pages found`} />
}

describe('Combobox', () => {
  it('draws an option its own way when asked, named by its label still', async () => {
    const { container } = render(
      <Combobox label="Patient" query="lan" onQueryChange={() => {}} options={[{ value: '9', label: '2026-000009 — Lan Trần (15/06/1950)' }]} onChoose={() => {}} renderOption={() => <span data-testid="two-parts">Lan Trần 15/06/1950 · 2026-000009</span>} />,
    )
    fireEvent.input(screen.getByRole('combobox', { name: 'Patient' }), { target: { value: 'lan ' } })
    const option = screen.getByRole('option', { name: '2026-000009 — Lan Trần (15/06/1950)' })
    expect(option.querySelector('[data-testid="two-parts"]')).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })

  it('lists options as the user types; the arrows move the active one and Enter chooses it', async () => {
    const onChoose = vi.fn()
    const { container } = render(<Search onChoose={onChoose} />)
    const box = screen.getByRole('combobox', { name: 'Search pages' })
    expect(box.getAttribute('aria-expanded')).toBe('false')
    fireEvent.input(box, { target: { value: 'r' } })
    expect(box.getAttribute('aria-expanded')).toBe('true')
    expect(screen.getAllByRole('option')).toHaveLength(2)
    expect(screen.getByRole('status').textContent).toBe('2 pages found')
    expect(await axeViolations(container)).toEqual([])
    // No option active yet: Enter takes none.
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(onChoose).not.toHaveBeenCalled()
    expect(box.getAttribute('aria-expanded')).toBe('true')
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    const second = screen.getByRole('option', { name: 'Administrator > Roles & Permissions' })
    expect(box.getAttribute('aria-activedescendant')).toBe(second.id)
    expect(second.getAttribute('aria-selected')).toBe('true')
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    expect(box.getAttribute('aria-activedescendant')).toBe(screen.getByRole('option', { name: 'Forms > Blank Prescription' }).id)
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(onChoose).toHaveBeenCalledWith('/forms/blankPrescription')
    expect(box.getAttribute('aria-expanded')).toBe('false')
  })

  it('chooses by click, says when nothing matches, and closes then clears on Escape', () => {
    const onChoose = vi.fn()
    render(<Search onChoose={onChoose} />)
    const box = screen.getByRole('combobox', { name: 'Search pages' })
    fireEvent.input(box, { target: { value: 'roles' } })
    fireEvent.click(screen.getByRole('option', { name: 'Administrator > Roles & Permissions' }))
    expect(onChoose).toHaveBeenCalledWith('/administrator/roles')
    // The status is there from the start (empty), so that what comes into it is announced.
    expect(screen.getByRole('status').textContent).toBe('')
    fireEvent.input(box, { target: { value: 'zzz' } })
    expect(screen.getByText('No page matches', { selector: '[aria-hidden]' })).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe('No page matches')
    fireEvent.input(box, { target: { value: 'forms' } })
    fireEvent.keyDown(box, { key: 'Escape' })
    expect(box.getAttribute('aria-expanded')).toBe('false')
    fireEvent.keyDown(box, { key: 'Escape' })
    expect((box as HTMLInputElement).value).toBe('')
  })

  it('as a form’s select with search: named by its field, opens on a click, and Enter takes the first option it shows', async () => {
    const onChoose = vi.fn()
    function Service() {
      const [query, setQuery] = useState('')
      const options = pages.filter((p) => p.label.toLowerCase().includes(query.toLowerCase()))
      return (
        <Field label="Service" required error="This field is required.">
          {(c) => <Combobox {...c} field activateFirst label="Service" query={query} onQueryChange={setQuery} options={options} onChoose={onChoose} />}
        </Field>
      )
    }
    const { container } = render(<Service />)
    const box = screen.getByRole('combobox', { name: 'Service' })
    expect(box.getAttribute('aria-invalid')).toBe('true')
    expect(screen.queryByRole('listbox')).toBeNull()
    fireEvent.click(box)
    expect(screen.getAllByRole('option')).toHaveLength(2)
    expect(await axeViolations(container)).toEqual([])
    fireEvent.input(box, { target: { value: 'roles' } })
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(onChoose).toHaveBeenCalledWith('/administrator/roles')
  })

  it('as a form’s select: the highlight holds when the same options come again, Enter on a closed list opens it and sends nothing, Escape keeps the choice', () => {
    const onChoose = vi.fn()
    const onSubmit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault())
    function Service({ tick }: { tick: number }) {
      const [query, setQuery] = useState('')
      // A new array on every render (the bill pushed again): the same options.
      const options = pages.map((p) => ({ ...p, tick }))
      return (
        <form onSubmit={onSubmit}>
          <Combobox field label="Service" query={query} onQueryChange={setQuery} options={options} onChoose={(v) => (onChoose(v), setQuery(v))} />
        </form>
      )
    }
    const { rerender } = render(<Service tick={0} />)
    const box = screen.getByRole('combobox', { name: 'Service' })
    fireEvent.click(box)
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    fireEvent.keyDown(box, { key: 'ArrowDown' })
    rerender(<Service tick={1} />)
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(onChoose).toHaveBeenLastCalledWith(pages[1].value)
    expect(box.getAttribute('aria-expanded')).toBe('false')
    fireEvent.keyDown(box, { key: 'Enter' })
    expect(box.getAttribute('aria-expanded')).toBe('true')
    expect(onSubmit).not.toHaveBeenCalled()
    fireEvent.keyDown(box, { key: 'Escape' })
    fireEvent.keyDown(box, { key: 'Escape' })
    expect((box as HTMLInputElement).value).toBe(pages[1].value)
  })

  it('draws a heading over each group of options, for the eye only: the options alone are chosen and counted', async () => {
    const grouped = [
      { value: 'CBC', label: 'Complete blood count', group: 'Laboratory' },
      { value: 'BMP', label: 'Basic metabolic panel', group: 'Laboratory' },
      { value: 'XR', label: 'Chest X-ray', group: 'Imaging' },
    ]
    const { container } = render(<Combobox field label="Test" query="" onQueryChange={() => undefined} options={grouped} onChoose={() => undefined} />)
    fireEvent.click(screen.getByRole('combobox', { name: 'Test' }))
    const list = screen.getByRole('listbox')
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Complete blood count', 'Basic metabolic panel', 'Chest X-ray'])
    expect([...list.querySelectorAll('li[aria-hidden]')].map((h) => h.textContent)).toEqual(['Laboratory', 'Imaging'])
    expect(list.textContent).toBe('LaboratoryComplete blood countBasic metabolic panelImagingChest X-ray')
    expect(await axeViolations(container)).toEqual([])
  })

  it('quiet: shows that nothing matches without a status of its own; disabled: nothing typed', () => {
    function Code({ disabled = false }: { disabled?: boolean }) {
      const [query, setQuery] = useState('')
      const options = pages.filter((p) => p.label.toLowerCase().includes(query.toLowerCase()))
      return <Combobox field quiet disabled={disabled} label="Code" query={query} onQueryChange={setQuery} options={options} onChoose={() => undefined} emptyText="No code found" />
    }
    const { rerender } = render(<Code />)
    const box = screen.getByRole('combobox', { name: 'Code' })
    fireEvent.input(box, { target: { value: 'zzz' } })
    expect(screen.getByText('No code found')).toBeTruthy()
    expect(screen.queryByRole('status')).toBeNull()
    rerender(<Code disabled />)
    expect((box as HTMLInputElement).disabled).toBe(true)
  })
})
