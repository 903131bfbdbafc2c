// @vitest-environment jsdom
import { cleanup, fireEvent, screen, within } from '@testing-library/react'
import { lazy } from 'react'
import { afterEach, describe, expect, it } from 'vitest'
import { ToastProvider } from '../../light/Toast'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import { resolveRoutes, toRouteObjects } from '../routing/resolve'
import type { AppRoute, PageComponent } from '../routing/types'
import { Navbar } from './Navbar'
import { ShellStateProvider } from './state'

afterEach(cleanup)

const Blank = lazy(() => Promise.resolve({ default: () => null })) as PageComponent
const routes: AppRoute[] = [
  { path: '/', redirect: '/dashboard', children: [{ path: 'dashboard', component: Blank, meta: { title: 'dashboard' } }] },
  { path: '/administrator', redirect: '/administrator/users', alwaysShow: true, meta: { title: 'administrator' }, children: [{ path: 'roles', component: Blank, meta: { title: 'rolePermission' } }] },
]

async function renderNavbar() {
  const me = user(['view menu permission'], ['admin'])
  return renderScreen(
    <ShellStateProvider affixViews={[]}>
      <ToastProvider>
        <Navbar me={me} routes={resolveRoutes(routes)} routeObjects={toRouteObjects(routes)} />
      </ToastProvider>
    </ShellStateProvider>,
    { me, api: {}, route: '/administrator/roles', at: '/administrator/roles' },
  )
}

describe('Navbar', () => {
  it('shows where the page is, a sidebar toggle and the menus, with no axe violations', async () => {
    const { container } = await renderNavbar()
    const crumbs = screen.getByRole('navigation', { name: 'Breadcrumb' })
    expect(within(crumbs).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['Dashboard', 'Administrator', 'Roles & Permissions'])
    expect(within(crumbs).getByText('Roles & Permissions').getAttribute('aria-current')).toBe('page')
    expect(within(crumbs).getByRole('link', { name: 'Dashboard' }).getAttribute('href')).toBe('/dashboard')
    const toggle = screen.getByRole('button', { name: 'Show or hide the menu' })
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    fireEvent.click(toggle)
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(screen.getByRole('combobox', { name: 'Search pages' })).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })

  it('switches the size from its menu, says so in a toast, and marks the size chosen', async () => {
    await renderNavbar()
    fireEvent.click(screen.getByRole('button', { name: 'Text and control size' }))
    expect(screen.getByRole('menuitemradio', { name: 'Medium' }).getAttribute('aria-checked')).toBe('true')
    fireEvent.click(screen.getByRole('menuitemradio', { name: 'Small' }))
    expect(document.querySelector('[data-emr-toasts]')!.textContent).toContain('Switch Size Success')
    fireEvent.click(screen.getByRole('button', { name: 'Text and control size' }))
    expect(screen.getByRole('menuitemradio', { name: 'Small' }).getAttribute('aria-checked')).toBe('true')
  })

  it('opens the account menu: the user’s own profile, the dashboard, log out', async () => {
    await renderNavbar()
    fireEvent.click(screen.getByRole('button', { name: 'Account of Test user' }))
    expect(screen.getAllByRole('menuitem').map((el) => el.textContent)).toEqual(['Test user', 'Dashboard', 'Log Out'])
  })
})
