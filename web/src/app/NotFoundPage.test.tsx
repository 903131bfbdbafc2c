// @vitest-environment jsdom
import { screen } from '@testing-library/react'
import { renderScreen, user } from '../test/render'
import NotFoundPage from './NotFoundPage'

// The page an address outside the user's routes lands on: a screen that exists but is not
// theirs says they have no access (and who gives it), whether its route is one every
// deployment has gated by a permission (the patients list) or an administration screen.
describe('NotFoundPage', () => {
  it.each(['/masterfile/patients', '/administrator/users', '/appointments/appointments'])('says a screen the user may not open (%s) is one they have no access to', async (at) => {
    await renderScreen(<NotFoundPage />, { me: user([]), api: {}, route: '*', at })
    expect(await screen.findByText('You do not have access to this page')).toBeTruthy()
  })

  it('says an address that is no screen is not found', async () => {
    await renderScreen(<NotFoundPage />, { me: user([]), api: {}, route: '*', at: '/nowhere/at-all' })
    expect(await screen.findByText('This page does not exist, or it has moved.')).toBeTruthy()
  })
})
