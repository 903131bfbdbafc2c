// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../../test/axe'
import { renderScreen, user } from '../../../test/render'
import { CodeSelect } from './CodeSelect'

afterEach(cleanup)

const codes = [
  { code: 'J02.9', label: 'Acute pharyngitis, unspecified' },
  { code: 'J03.9', label: 'Acute tonsillitis, unspecified' },
  { code: 'I10', label: 'Essential (primary) hypertension' },
]
const api = {
  'GET /diagnosis-codes': ({ params }: { params: Record<string, unknown> }) => ({ data: codes.filter((c) => `${c.code} ${c.label}`.toLowerCase().includes(String(params.q ?? '').toLowerCase())) }),
  'GET /favourites': { codes: [{ ref: 'I10', label: 'Essential (primary) hypertension', favourite: true, uses: 3 }], tests: [], medicines: [] },
}
const doctor = user(['write diagnosis'])

/** The picker in a form's field, as the visit gives it: a label by id, a help by aria-describedby. */
function Diagnosis({ initial = '', disabled = false, changes }: { initial?: string; disabled?: boolean; changes: string[] }) {
  const [code, setCode] = useState(initial)
  return (
    <div>
      <label htmlFor="dx_code">Code</label>
      <CodeSelect id="dx_code" aria-describedby="dx_help" value={code} initialLabel="Essential (primary) hypertension" disabled={disabled} onChange={(v) => (changes.push(v), setCode(v))} />
      <div id="dx_help">From the ICD-10 list</div>
    </div>
  )
}

const box = () => screen.getByRole('combobox', { name: 'Code' }) as HTMLInputElement

describe('CodeSelect', () => {
  it('shows the chosen code with its label, named and described by its field, with no axe finding', async () => {
    const { container } = await renderScreen(<Diagnosis initial="I10" changes={[]} />, { me: doctor, api })
    expect(box().value).toBe('I10 — Essential (primary) hypertension')
    expect(box().id).toBe('dx_code')
    expect(box().getAttribute('aria-describedby')).toBe('dx_help')
    expect(await axeViolations(container)).toEqual([])
  })

  it('searches as the doctor types, Enter takes the first found, and the box then shows it', async () => {
    const changes: string[] = []
    const view = await renderScreen(<Diagnosis changes={changes} />, { me: doctor, api })
    fireEvent.focus(box())
    fireEvent.input(box(), { target: { value: 'pharyng' } })
    const first = await screen.findByRole('option', { name: 'J02.9 — Acute pharyngitis, unspecified' })
    expect(first.getAttribute('aria-selected')).toBe('true')
    expect(await axeViolations(view.container)).toEqual([])
    fireEvent.keyDown(box(), { key: 'Enter' })
    expect(changes).toEqual(['J02.9'])
    expect(box().value).toBe('J02.9 — Acute pharyngitis, unspecified')
    expect(screen.queryByRole('listbox')).toBeNull()
    // Its text selected, what is typed next searches anew, not after it (an accessibility review).
    box().focus()
    await waitFor(() => expect([box().selectionStart, box().selectionEnd]).toEqual([0, box().value.length]))
  })

  it('offers the doctor’s favourites first, starred, before anything is typed', async () => {
    await renderScreen(<Diagnosis changes={[]} />, { me: doctor, api })
    fireEvent.focus(box())
    fireEvent.click(box())
    await waitFor(() => expect(screen.getAllByRole('option').length).toBeGreaterThan(1))
    expect(screen.getAllByRole('option')[0].textContent).toBe('★ I10 — Essential (primary) hypertension')
  })

  it('says when nothing is found, without a status of its own beside the visit’s', async () => {
    await renderScreen(<Diagnosis changes={[]} />, { me: doctor, api })
    fireEvent.input(box(), { target: { value: 'zzz' } })
    expect(await screen.findByText('No code matches')).toBeTruthy()
    expect(screen.queryAllByRole('status').filter((s) => !s.hasAttribute('data-emr-toasts'))).toEqual([])
  })

  it('keeps the code when a search is left unchosen, clears it when the box is emptied or by its clear button', async () => {
    const changes: string[] = []
    await renderScreen(<Diagnosis initial="I10" changes={changes} />, { me: doctor, api })
    fireEvent.input(box(), { target: { value: 'tons' } })
    fireEvent.blur(box())
    expect(box().value).toBe('I10 — Essential (primary) hypertension')
    expect(changes).toEqual([])
    fireEvent.input(box(), { target: { value: '' } })
    fireEvent.blur(box())
    expect(changes).toEqual([''])
    expect(box().value).toBe('')
    // Chosen again, then cleared by the button, which gives focus back to the box.
    fireEvent.input(box(), { target: { value: 'tons' } })
    await screen.findByRole('option', { name: /J03\.9/ })
    fireEvent.keyDown(box(), { key: 'Enter' })
    fireEvent.click(screen.getByRole('button', { name: 'Clear the field' }))
    expect(changes).toEqual(['', 'J03.9', ''])
    expect(document.activeElement).toBe(box())
  })

  it('is read-only on a signed visit: disabled, with no clear button', async () => {
    await renderScreen(<Diagnosis initial="I10" disabled changes={[]} />, { me: doctor, api })
    expect(box().disabled).toBe(true)
    expect(screen.queryByRole('button', { name: 'Clear the field' })).toBeNull()
  })
})
