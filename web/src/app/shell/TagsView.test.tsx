// @vitest-environment jsdom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { useEffect } from 'react'
import { MemoryRouter, Navigate, useLocation } from 'react-router'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { initI18n } from '../../lib/i18n'
import { axeViolations } from '../../test/axe'
import { ShellStateProvider, useShell } from './state'
import { TagsView } from './TagsView'
import type { View } from './tags'

beforeAll(async () => {
  await initI18n('en')
})
afterEach(cleanup)

const view = (path: string, title: string, affix = false): View => ({ path, search: '', title, affix })
const dashboard = view('/dashboard', 'dashboard', true)
const opened = [view('/masterfile/patients', 'patients'), view('/administrator/users', 'users'), view('/administrator/roles', 'rolePermission')]

/** The tabs, with the pages given already visited, and the page the router shows. */
function Tabs({ views }: { views: View[] }) {
  const { dispatchTags } = useShell()
  const location = useLocation()
  useEffect(() => views.forEach((v) => dispatchTags({ type: 'visit', view: v })), [views, dispatchTags])
  // As the app does, / goes on to the dashboard, whose page opened gets its tab.
  useEffect(() => {
    if (location.pathname === '/dashboard') dispatchTags({ type: 'visit', view: dashboard })
  }, [location.pathname, dispatchTags])
  return (
    <>
      {location.pathname === '/' && <Navigate to="/dashboard" replace />}
      <TagsView />
      <p data-testid="at">{location.pathname}</p>
    </>
  )
}

function renderTabs(at: string, affix: View[] = [dashboard]) {
  return render(
    <MemoryRouter initialEntries={[at]}>
      <ShellStateProvider affixViews={affix}>
        <Tabs views={opened} />
      </ShellStateProvider>
    </MemoryRouter>,
  )
}

const tabs = () => within(screen.getByRole('navigation'))
const link = (name: string) => tabs().getByRole('link', { name })

describe('TagsView', () => {
  it('closing the active tab with its ✕ moves focus to the next tab’s link, and has no axe violations', async () => {
    const { container } = renderTabs('/administrator/users')
    expect(await axeViolations(container)).toEqual([])
    fireEvent.click(tabs().getByRole('button', { name: 'Close Users' }))
    expect(screen.getByTestId('at').textContent).toBe('/administrator/roles')
    expect(document.activeElement).toBe(link('Roles & Permissions'))
  })

  it('closing another tab’s ✕: the next tab, else the previous one', () => {
    renderTabs('/dashboard')
    fireEvent.click(tabs().getByRole('button', { name: 'Close Patients' }))
    expect(document.activeElement).toBe(link('Users'))
    fireEvent.click(tabs().getByRole('button', { name: 'Close Roles & Permissions' }))
    expect(document.activeElement).toBe(link('Users'))
    expect(screen.getByTestId('at').textContent).toBe('/dashboard')
  })

  it('Close from the context menu moves focus to the next tab, not to the page’s start', () => {
    renderTabs('/administrator/roles')
    const users = link('Users')
    users.focus()
    fireEvent.keyDown(users, { key: 'F10', shiftKey: true })
    fireEvent.click(screen.getByRole('menuitem', { name: 'Close' }))
    expect(document.activeElement).toBe(link('Roles & Permissions'))
    // The last tab closed from its menu: the one before it.
    fireEvent.keyDown(document.activeElement!, { key: 'ContextMenu' })
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' })
    expect(document.activeElement).toBe(link('Patients'))
    expect(screen.getByTestId('at').textContent).toBe('/masterfile/patients')
  })

  it('Close All moves focus to the tab of the page opened', () => {
    renderTabs('/administrator/users')
    const users = link('Users')
    users.focus()
    fireEvent.keyDown(users, { key: 'F10', shiftKey: true })
    fireEvent.click(screen.getByRole('menuitem', { name: 'Close All' }))
    expect(tabs().getAllByRole('link').map((a) => a.textContent)).toEqual(['Dashboard'])
    expect(document.activeElement).toBe(link('Dashboard'))
  })

  it('with no tab left, the tab of the page opened after the redirect takes focus', async () => {
    renderTabs('/administrator/users', [])
    fireEvent.keyDown(link('Users'), { key: 'F10', shiftKey: true })
    await act(async () => fireEvent.click(screen.getByRole('menuitem', { name: 'Close All' })))
    expect(screen.getByTestId('at').textContent).toBe('/dashboard')
    expect(document.activeElement).toBe(link('Dashboard'))
  })
})
