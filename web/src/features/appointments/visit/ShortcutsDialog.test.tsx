// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { initI18n } from '../../../lib/i18n'
import { axeViolations } from '../../../test/axe'
import { SHORTCUTS } from './shortcuts'
import { ShortcutsDialog } from './ShortcutsDialog'

beforeAll(() => initI18n('en'))
afterEach(cleanup)

function Help() {
  const [open, setOpen] = useState(false)
  return (
    <>
      <button onClick={() => setOpen(true)}>Keyboard shortcuts</button>
      {open && <ShortcutsDialog onClose={() => setOpen(false)} />}
    </>
  )
}

describe('the shortcuts dialog', () => {
  it('lists every shortcut with its keys, then the snippets’ keys; Escape closes it and focus goes back', async () => {
    const { container } = render(<Help />)
    const opener = screen.getByRole('button', { name: 'Keyboard shortcuts' })
    opener.focus()
    fireEvent.click(opener)
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts of the visit' })
    const table = within(dialog).getByRole('table')
    expect(within(table).getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Keys', 'What it does'])
    const rows = within(table).getAllByRole('row').slice(1)
    expect(rows).toHaveLength(SHORTCUTS.length + 3)
    expect(rows.map((r) => r.querySelector('kbd')?.textContent)).toEqual([...SHORTCUTS.map((s) => s.keys), ';shortcut then Tab or Space', 'Ctrl+Z', 'Esc'])
    expect(within(rows[0]).getByText('Show this list (outside a text field)')).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
    fireEvent.keyDown(dialog, { key: 'Escape' })
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(document.activeElement).toBe(opener)
  })
})
