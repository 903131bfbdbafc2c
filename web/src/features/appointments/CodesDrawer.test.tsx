// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import { CodesDrawer } from './CodesDrawer'

afterEach(cleanup)

describe('CodesDrawer', () => {
  it('lists the codes as it opens and as the search changes, and imports a file, listing the lines it refused', async () => {
    const view = await renderScreen(<CodesDrawer open onClose={() => {}} />, {
      me: user(['manage catalogue']),
      api: {
        'GET /diagnosis-codes': ({ params }: { params: Record<string, unknown> }) =>
          params.q === 'pharyn' ? { data: [{ code: 'J02.9', label: 'Acute pharyngitis, unspecified' }] } : { data: [{ code: 'A00', label: 'Cholera' }, { code: 'I10', label: 'Essential hypertension' }] },
        'POST /diagnosis-codes/import': { inserted: 2, updated: 1, unchanged: 0, rejected: 1, errors: [{ line: 4, message: 'No code.' }] },
      },
    })
    const drawer = await screen.findByRole('dialog', { name: 'Diagnosis codes' })
    await waitFor(() => expect(within(drawer).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['A00Cholera', 'I10Essential hypertension']))
    fireEvent.input(within(drawer).getByRole('searchbox', { name: 'Search codes' }), { target: { value: 'pharyn' } })
    await waitFor(() => expect(within(drawer).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['J02.9Acute pharyngitis, unspecified']))

    const file = new File(['code,label_en\n'], 'codes.csv', { type: 'text/csv' })
    fireEvent.change(drawer.querySelector('input[type=file]')!, { target: { files: [file] } })
    await waitFor(() => expect(drawer.textContent).toContain('Added 2, updated 1, unchanged 0, rejected 1.'))
    expect(within(drawer).getByRole('cell', { name: 'No code.' })).toBeTruthy()
    expect(view.sent.map((s) => s.path)).toEqual(['/diagnosis-codes/import'])
    expect(await axeViolations(drawer)).toEqual([])
  })
})
