// @vitest-environment jsdom
import { act, fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { MemoryRouter } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../../test/axe'
import type { SideItem } from './menu'
import { SideMenu } from './SideMenu'

const items: SideItem[] = [
  { key: '/dashboard', label: 'Dashboard', icon: 'D' },
  { key: '/masterfile', label: 'Master File', icon: 'M', children: [{ key: '/masterfile/patients', label: 'Patients' }] },
  {
    key: '/administrator',
    label: 'Administrator',
    icon: 'A',
    children: [
      { key: '/administrator/users', label: 'Users' },
      { key: '/administrator/roles', label: 'Roles & Permissions' },
    ],
  },
]

function Menu({ collapsed = false, selected = '/dashboard', onNavigate = () => {} }: { collapsed?: boolean; selected?: string; onNavigate?: () => void }) {
  const [open, setOpen] = useState<string[]>([])
  return (
    <MemoryRouter>
      <SideMenu items={items} selected={selected} collapsed={collapsed} openKeys={open} onOpenChange={setOpen} onNavigate={onNavigate} label="Main menu" />
    </MemoryRouter>
  )
}

const item = (name: string) => screen.getByRole('menuitem', { name })

describe('SideMenu', () => {
  it('shows the pages and groups, the current page marked, groups opening on a click', async () => {
    const onNavigate = vi.fn()
    const { container } = render(<Menu onNavigate={onNavigate} />)
    expect(screen.getAllByRole('menuitem').map((el) => el.textContent)).toEqual(['DDashboard', 'MMaster File', 'AAdministrator'])
    expect(item('Dashboard').getAttribute('aria-current')).toBe('page')
    expect(item('Dashboard').getAttribute('tabindex')).toBe('0')
    expect(item('Administrator').getAttribute('tabindex')).toBe('-1')
    expect(item('Administrator').getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(item('Administrator'))
    expect(item('Administrator').getAttribute('aria-expanded')).toBe('true')
    expect(screen.getByRole('group', { name: 'Administrator' })).toBeTruthy()
    expect(item('Users').getAttribute('href')).toBe('/administrator/users')
    expect(await axeViolations(container)).toEqual([])
    fireEvent.click(item('Users'))
    expect(onNavigate).toHaveBeenCalled()
    fireEvent.click(item('Administrator'))
    expect(screen.queryByRole('menuitem', { name: 'Users' })).toBeNull()
  })

  it('moves with the arrow keys; ArrowRight opens a group and enters it, ArrowLeft goes back', () => {
    render(<Menu />)
    item('Dashboard').focus()
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(item('Master File'))
    fireEvent.keyDown(document.activeElement!, { key: 'End' })
    expect(document.activeElement).toBe(item('Administrator'))
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowRight' })
    expect(document.activeElement).toBe(item('Users'))
    expect(item('Users').getAttribute('tabindex')).toBe('0')
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(item('Roles & Permissions'))
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowLeft' })
    expect(document.activeElement).toBe(item('Administrator'))
    fireEvent.keyDown(document.activeElement!, { key: 'Home' })
    expect(document.activeElement).toBe(item('Dashboard'))
  })

  it('collapsed: icons named by their page, a group’s pages in a flyout on hover, on focus and on Enter', async () => {
    const { container } = render(<Menu collapsed selected="/administrator/roles" />)
    // The group holding the current page is the tab stop.
    expect(item('Administrator').getAttribute('tabindex')).toBe('0')
    // The name's tooltip is for the eye (the link is named by the same words).
    const tip = item('Dashboard').parentElement!.querySelector('[role="tooltip"]')!
    expect(tip.textContent).toBe('Dashboard')
    expect(tip.getAttribute('aria-hidden')).toBe('true')
    fireEvent.mouseEnter(item('Master File').parentElement!)
    expect(item('Master File').getAttribute('aria-expanded')).toBe('true')
    expect(item('Patients')).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
    act(() => item('Administrator').focus())
    expect(item('Administrator').getAttribute('aria-expanded')).toBe('true')
    expect(item('Master File').getAttribute('aria-expanded')).toBe('false')
    fireEvent.keyDown(item('Administrator'), { key: 'ArrowRight' })
    expect(document.activeElement).toBe(item('Users'))
    expect(item('Roles & Permissions').getAttribute('aria-current')).toBe('page')
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    expect(document.activeElement).toBe(item('Administrator'))
    expect(screen.queryByRole('menuitem', { name: 'Users' })).toBeNull()
    fireEvent.click(item('Master File'), { detail: 0 })
    expect(document.activeElement).toBe(item('Patients'))
  })

  it('collapsed: Escape hides a page’s tooltip and a hovered flyout, the pointer and focus left where they are', () => {
    render(<Menu collapsed />)
    const holder = item('Dashboard').parentElement!
    const tip = holder.querySelector<HTMLElement>('[role="tooltip"]')!
    expect(tip.hidden).toBe(true)
    fireEvent.pointerEnter(holder)
    expect(tip.hidden).toBe(false)
    // The pointer moved onto the tooltip is still inside its holder: it stays.
    fireEvent.pointerEnter(tip)
    expect(tip.hidden).toBe(false)
    fireEvent.keyDown(document.body, { key: 'Escape' })
    expect(tip.hidden).toBe(true)
    fireEvent.pointerLeave(holder)
    fireEvent.pointerEnter(holder)
    expect(tip.hidden).toBe(false)
    fireEvent.pointerLeave(holder)
    expect(tip.hidden).toBe(true)

    fireEvent.mouseEnter(item('Master File').parentElement!)
    expect(item('Master File').getAttribute('aria-expanded')).toBe('true')
    fireEvent.keyDown(document.body, { key: 'Escape' })
    expect(item('Master File').getAttribute('aria-expanded')).toBe('false')
    expect(screen.queryByRole('menuitem', { name: 'Patients' })).toBeNull()
  })

  it('collapsed: a flyout’s page chosen with Enter hides the flyout and gives focus to its group', () => {
    const onNavigate = vi.fn()
    render(<Menu collapsed onNavigate={onNavigate} />)
    fireEvent.click(item('Administrator'), { detail: 0 })
    expect(document.activeElement).toBe(item('Users'))
    // Enter on a link is its click.
    fireEvent.click(item('Users'), { detail: 0 })
    expect(onNavigate).toHaveBeenCalled()
    expect(screen.queryByRole('menuitem', { name: 'Users' })).toBeNull()
    expect(document.activeElement).toBe(item('Administrator'))
    expect(item('Administrator').getAttribute('aria-expanded')).toBe('false')
  })
})
