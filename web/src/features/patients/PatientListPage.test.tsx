// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { useLocation } from 'react-router'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import type { PatientPage } from './api/listPatients'
import type { PatientSummary } from './api/types'
import PatientListPage from './PatientListPage'

afterEach(cleanup)

const patient = (id: number, last: string, extra: Partial<PatientSummary> = {}): PatientSummary => ({
  id, mrn: `2026-${String(id).padStart(6, '0')}`, first_name: 'An', middle_name: '', last_name: last, sex: 'female', birth_date: '1980-02-03', phone: '+84 90 000 000' + (id % 10), archived: false, has_photo: false, ...extra,
})

/** The address the screen keeps its search in, shown for the test to read. */
function Where() {
  return <output data-testid="where">{useLocation().search}</output>
}
const where = () => screen.getByTestId('where').textContent

/** The register's answer to each request, recorded: 40 patients, the archived ones only when asked. */
function register() {
  const asked: Record<string, unknown>[] = []
  const all = Array.from({ length: 40 }, (_, i) => patient(i + 1, `Nguyễn${i + 1}`))
  const answer = ({ params }: { params: Record<string, unknown> }): PatientPage => {
    asked.push(params)
    const page = Number(params.page)
    const per = Number(params.per_page)
    const rows = params.archived ? [patient(99, 'Lê', { archived: true })] : all.filter((p) => !params.q || p.last_name.toLowerCase().includes(String(params.q).toLowerCase()))
    return { data: rows.slice((page - 1) * per, page * per), meta: { total: rows.length, total_exact: true, page, per_page: per } }
  }
  return { asked, api: { 'GET /patients': answer } }
}

const show = async (permissions = ['view patient'], at = '/masterfile/patients') => {
  const r = register()
  const view = await renderScreen(
    <>
      <PatientListPage />
      <Where />
    </>,
    { me: user(permissions), api: r.api, route: '/masterfile/patients', at },
  )
  return { ...view, asked: r.asked }
}

const table = () => screen.getByRole('table', { name: 'Patients' })
const rows = () => within(table()).getAllByRole('row').slice(1)

describe('PatientListPage', () => {
  it('lists a page of patients with their links, the total and the pager', async () => {
    const { container } = await show()
    await waitFor(() => expect(rows()).toHaveLength(15))
    expect(screen.getByRole('heading', { name: 'Patients', level: 2 })).toBeTruthy()
    expect(within(table()).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Patient no.', 'Name', 'Sex', 'Birth date', 'Phone', 'Actions'])
    const first = rows()[0]
    expect(within(first).getByRole('link', { name: '2026-000001' }).getAttribute('href')).toBe('/masterfile/profile/1/2026-000001')
    expect(within(first).getByRole('link', { name: 'An Nguyễn1' })).toBeTruthy()
    expect(within(first).getByRole('link', { name: 'Chart' })).toBeTruthy()
    expect(first.textContent).toContain('Female')
    expect(first.textContent).toMatch(/1980-02-03 \(\d+ y\)/)
    const pager = screen.getByRole('navigation', { name: 'Pagination' })
    expect(pager.textContent).toContain('40 patients')
    expect(within(pager).getByRole('button', { name: 'Page 1' }).getAttribute('aria-current')).toBe('page')
    expect(await axeViolations(container)).toEqual([])
  })

  it('searches 300 ms after the last keystroke, and at once on Enter', async () => {
    const { asked } = await show()
    await waitFor(() => expect(rows()).toHaveLength(15))
    const box = screen.getByRole('searchbox', { name: 'Search patients' })
    fireEvent.input(box, { target: { value: 'nguyễn1' } })
    fireEvent.input(box, { target: { value: 'nguyễn12' } })
    expect(where()).toBe('')
    await waitFor(() => expect(where()).toBe('?q=nguy%E1%BB%85n12'))
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(asked.filter((p) => p.q === 'nguyễn1')).toEqual([])
    fireEvent.input(box, { target: { value: ' nguyễn3 ' } })
    fireEvent.submit(box.closest('form')!)
    expect(where()).toBe('?q=nguy%E1%BB%85n3')
    await waitFor(() => expect(rows()).toHaveLength(1))
  })

  it('starts from the address, and pages and page sizes go into it', async () => {
    await show(['view patient'], '/masterfile/patients?page=2')
    await waitFor(() => expect(rows()).toHaveLength(15))
    expect(within(rows()[0]).getByRole('link', { name: 'An Nguyễn16' })).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Next page' }))
    expect(where()).toBe('?page=3')
    await waitFor(() => expect(rows()).toHaveLength(10))
    fireEvent.click(screen.getByRole('button', { name: 'Page 1' }))
    expect(where()).toBe('')
    fireEvent.change(screen.getByRole('combobox', { name: 'Rows per page' }), { target: { value: '50' } })
    expect(where()).toBe('?per_page=50')
    await waitFor(() => expect(rows()).toHaveLength(40))
  })

  it('shows the archived patients when the switch is on, tagged', async () => {
    const { asked } = await show()
    await waitFor(() => expect(rows()).toHaveLength(15))
    fireEvent.click(screen.getByRole('switch', { name: 'Archived' }))
    expect(where()).toBe('?archived=1')
    await waitFor(() => expect(rows()).toHaveLength(1))
    expect(within(rows()[0]).getByText('Archived')).toBeTruthy()
    expect(asked.at(-1)).toMatchObject({ archived: 1 })
    expect((screen.getByRole('switch', { name: 'Archived' }) as HTMLInputElement).checked).toBe(true)
  })

  it('says when no patient matches, and tells a screen reader what a search found', async () => {
    await show(['view patient'], '/masterfile/patients?q=zzz')
    await waitFor(() => expect(document.querySelector('p[role=status]')?.textContent).toBe('No patients match.'))
    expect(screen.queryByRole('navigation', { name: 'Pagination' })).toBeNull()
    const box = screen.getByRole('searchbox', { name: 'Search patients' })
    fireEvent.input(box, { target: { value: 'nguyễn1' } })
    fireEvent.submit(box.closest('form')!)
    // Nguyễn1 and Nguyễn10…19.
    await waitFor(() => expect(document.querySelector('p[role=status]')?.textContent).toBe('11 patients'))
  })

  it('goes to the last page from a page past it', async () => {
    await show(['view patient'], '/masterfile/patients?page=9')
    await waitFor(() => expect(where()).toBe('?page=3'))
    await waitFor(() => expect(rows()).toHaveLength(10))
    expect(screen.getByRole('button', { name: 'Page 3' }).getAttribute('aria-current')).toBe('page')
  })

  it('offers New patient and Edit only to one who manages patients', async () => {
    await show()
    await waitFor(() => expect(rows()).toHaveLength(15))
    expect(screen.queryByRole('button', { name: 'New patient' })).toBeNull()
    expect(within(rows()[0]).queryByRole('link', { name: 'Edit' })).toBeNull()
    cleanup()
    await show(['view patient', 'manage patient'])
    await waitFor(() => expect(rows()).toHaveLength(15))
    expect(screen.getByRole('button', { name: 'New patient' })).toBeTruthy()
    expect(within(rows()[0]).getByRole('link', { name: 'Edit' }).getAttribute('href')).toBe('/masterfile/patient_form/1')
  })
})
