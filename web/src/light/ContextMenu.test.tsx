// @vitest-environment jsdom
import { fireEvent, render, screen } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { axeViolations } from '../test/axe'
import { ContextMenu, contextMenuAt, isContextMenuKey, type ContextMenuAt } from './ContextMenu'

function Tab({ onSelect }: { onSelect: (key: string) => void }) {
  const [at, setAt] = useState<ContextMenuAt>()
  return (
    <>
      <a
        href="/x"
        onContextMenu={(e) => {
          e.preventDefault()
          setAt(contextMenuAt(e))
        }}
        onKeyDown={(e) => {
          if (isContextMenuKey(e)) {
            e.preventDefault()
            setAt(contextMenuAt(e))
          }
        }}
      >
        Patients
      </a>
      {at && (
        <ContextMenu
          at={at}
          label="Patients"
          items={[
            { key: 'refresh', label: 'Refresh' },
            { key: 'close', label: 'Close', disabled: true },
            { key: 'closeAll', label: 'Close All' },
          ]}
          onSelect={onSelect}
          onClose={() => setAt(undefined)}
        />
      )}
    </>
  )
}

describe('ContextMenu', () => {
  it('opens at the pointer on a right-click, focus on its first item', async () => {
    const onSelect = vi.fn()
    const { container } = render(<Tab onSelect={onSelect} />)
    fireEvent.contextMenu(screen.getByRole('link'), { clientX: 40, clientY: 30 })
    const menu = screen.getByRole('menu', { name: 'Patients' })
    expect((menu.parentElement as HTMLElement).style.left).toBe('40px')
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Refresh' }))
    expect(screen.getByRole('menuitem', { name: 'Close' }).getAttribute('aria-disabled')).toBe('true')
    expect(await axeViolations(container)).toEqual([])
    fireEvent.keyDown(document.activeElement!, { key: 'ArrowDown' })
    expect(document.activeElement).toBe(screen.getByRole('menuitem', { name: 'Close All' }))
    fireEvent.keyDown(document.activeElement!, { key: 'Enter' })
    expect(onSelect).toHaveBeenCalledWith('closeAll')
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(screen.getByRole('link'))
  })

  it('opens from the keyboard (Shift+F10 and the ContextMenu key); Escape gives focus back', () => {
    render(<Tab onSelect={() => {}} />)
    const link = screen.getByRole('link')
    link.focus()
    fireEvent.keyDown(link, { key: 'F10', shiftKey: true })
    expect(screen.getByRole('menu')).toBeTruthy()
    fireEvent.keyDown(document.activeElement!, { key: 'Escape' })
    expect(screen.queryByRole('menu')).toBeNull()
    expect(document.activeElement).toBe(link)
    fireEvent.keyDown(link, { key: 'ContextMenu' })
    expect(screen.getByRole('menu')).toBeTruthy()
  })
})
