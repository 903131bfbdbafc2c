// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen } from '@testing-library/react'
import { lazy } from 'react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import type { AppRoute, PageComponent } from '../routing/types'
import { Sidebar } from './Sidebar'
import { useSidebarModal } from './sidebarModal'
import { ShellStateProvider, SIDEBAR_TOGGLE_ID, useShell } from './state'

const Blank = lazy(() => Promise.resolve({ default: () => null })) as PageComponent
const routes: AppRoute[] = [
  { path: '/', redirect: '/dashboard', children: [{ path: 'dashboard', component: Blank, meta: { title: 'dashboard', icon: 'dashboard' } }] },
  {
    path: '/administrator',
    redirect: '/administrator/users',
    alwaysShow: true,
    meta: { title: 'administrator' },
    children: [
      { path: 'users', component: Blank, meta: { title: 'users' } },
      { path: 'roles', component: Blank, meta: { title: 'rolePermission' } },
    ],
  },
]

/** The layout's parts the phone's sidebar works with: the toggle, and the page behind. */
function Phone() {
  const { modal, closeModal } = useSidebarModal()
  const { toggleSidebar, sidebarOpened } = useShell()
  return (
    <>
      <Sidebar routes={routes} onMobileClose={(reason) => closeModal(reason === 'page' ? 'main' : 'toggle')} />
      {modal && <div data-testid="backdrop" onClick={() => closeModal('toggle')} />}
      <div data-testid="rest" inert={modal}>
        <button type="button" id={SIDEBAR_TOGGLE_ID} aria-expanded={sidebarOpened} onClick={toggleSidebar}>
          Show or hide the menu
        </button>
        <main id="main" tabIndex={-1}>
          The page
        </main>
      </div>
    </>
  )
}

const width = (w: number) => Object.defineProperty(window, 'innerWidth', { configurable: true, value: w })
beforeEach(() => width(390))
afterEach(() => {
  cleanup()
  width(1024)
})

async function renderPhone(at = '/administrator/roles') {
  const me = user([], ['admin'])
  const view = await renderScreen(
    <ShellStateProvider affixViews={[]}>
      <Phone />
    </ShellStateProvider>,
    { me, api: {}, route: '*', at },
  )
  const toggle = screen.getByRole('button', { name: 'Show or hide the menu' })
  const open = () => {
    toggle.focus()
    fireEvent.click(toggle)
  }
  return { ...view, toggle, open, rest: screen.getByTestId('rest') }
}

const item = (name: string) => screen.getByRole('menuitem', { name })

describe('Sidebar on a phone', () => {
  it('is a modal: focus goes in on the current page, the rest is inert, Tab stays inside, no axe violations', async () => {
    const { container, open, rest } = await renderPhone()
    expect(screen.getByRole('complementary', { hidden: true }).hasAttribute('inert')).toBe(true)
    expect(rest.hasAttribute('inert')).toBe(false)
    open()
    expect(document.activeElement).toBe(item('Roles & Permissions'))
    expect(rest.hasAttribute('inert')).toBe(true)
    const close = screen.getByRole('button', { name: 'Close the menu' })
    // Tab from the last stop (the menu's) goes round to the first (the logo), Shift+Tab back.
    fireEvent.keyDown(document.activeElement!, { key: 'Tab' })
    expect(document.activeElement).toBe(screen.getByRole('link', { name: /EMR|Clinic/ }))
    fireEvent.keyDown(document.activeElement!, { key: 'Tab', shiftKey: true })
    expect(document.activeElement).toBe(item('Roles & Permissions'))
    expect(close).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })

  it('gives focus back to the toggle when closed by its button, by Escape and by the backdrop', async () => {
    const { open, toggle, rest } = await renderPhone()
    open()
    fireEvent.click(screen.getByRole('button', { name: 'Close the menu' }))
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(rest.hasAttribute('inert')).toBe(false)
    expect(document.activeElement).toBe(toggle)
    open()
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(toggle)
    open()
    fireEvent.click(screen.getByTestId('backdrop'))
    expect(document.activeElement).toBe(toggle)
  })

  it('a page chosen in it: the sidebar hides and focus goes to the page', async () => {
    const { open, toggle } = await renderPhone()
    open()
    await act(async () => fireEvent.click(item('Users')))
    expect(toggle.getAttribute('aria-expanded')).toBe('false')
    expect(document.activeElement).toBe(screen.getByRole('main'))
  })

  it('with no page of its own open, focus goes to the menu’s first item', async () => {
    const { open } = await renderPhone('/nowhere')
    open()
    expect(document.activeElement).toBe(item('Dashboard'))
  })
})
