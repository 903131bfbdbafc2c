// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { initI18n } from '../../../lib/i18n'
import { axeViolations } from '../../../test/axe'
import type { Amendment } from '../api/types'
import { AmendmentsCard } from './AmendmentsCard'

beforeAll(() => initI18n('en'))
afterEach(cleanup)

const amendments = [
  {
    id: 4,
    amended_at: '2026-11-30T03:00:00Z',
    amended_by: 'Dr Minh',
    reason: 'Duration told by phone',
    previous: { chief_complaint: 'Sore throat', diagnoses: [{ code: 'J02.9', label: 'Acute pharyngitis, unspecified', text: '', primary: true }], plan: '' },
  },
] as unknown as Amendment[]

describe('the amendments card', () => {
  it('lists each amendment by when, who and why; opened, it shows what the visit said before', async () => {
    const { container } = render(<AmendmentsCard amendments={amendments} />)
    expect(screen.getByRole('heading', { name: 'Amendment history' })).toBeTruthy()
    const line = screen.getByText(/Dr Minh: Duration told by phone$/)
    const panel = line.closest('details')!
    expect(panel.open).toBe(false)
    fireEvent.click(line)
    panel.open = true // jsdom does not toggle a <details> on its summary's click
    expect(within(panel).getByText('Before the amendment')).toBeTruthy()
    expect(within(panel).getByText('Sore throat')).toBeTruthy()
    expect(within(panel).getByText('J02.9 Acute pharyngitis, unspecified (primary)')).toBeTruthy()
    expect(within(panel).getByText('—')).toBeTruthy()
    expect(await axeViolations(container)).toEqual([])
  })
})
