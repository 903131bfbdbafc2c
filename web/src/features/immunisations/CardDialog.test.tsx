// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../test/axe'
import { renderScreen, user } from '../../test/render'
import { CardDialog } from './CardDialog'

afterEach(cleanup)

describe('CardDialog', () => {
  it('issues the card on the paper and in the language chosen', async () => {
    const { sent } = await renderScreen(<CardDialog patientId={9} onClose={() => {}} />, {
      me: user(['record immunisations', 'view patient']),
      api: { 'POST /patients/9/immunisation-card': { id: 77 } },
    })
    const dialog = screen.getByRole('dialog', { name: 'Print the immunisation card' })
    expect(await axeViolations(dialog)).toEqual([])
    fireEvent.click(within(dialog).getByRole('radio', { name: 'A5' }))
    fireEvent.change(within(dialog).getByLabelText('Language of the card'), { target: { value: 'vi' } })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Print the card' }))
    await waitFor(() => expect(sent.filter((s) => s.path === '/patients/9/immunisation-card')).toHaveLength(1))
    expect(sent.find((s) => s.path === '/patients/9/immunisation-card')!.body).toEqual({ paper: 'a5-portrait', language: 'vi' })
  })
})
