// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../test/axe'
import { Refusal, renderScreen, user } from '../../test/render'
import { alert } from './alertFixture'
import CriticalAlertsBanner from './CriticalAlertsBanner'

afterEach(cleanup)

describe('AcknowledgeDialog', () => {
  // The dialog opens at once on its details (the value read first), asks what the form asked,
  // with the same messages, and passes axe; Escape closes it, a click beside it does not.
  it('opens the acknowledgement at once on its details, asks every answer, and closes by Escape only', async () => {
    const view = await renderScreen(<CriticalAlertsBanner alerts={[alert(new Date())]} />, { me: user(['acknowledge critical results']), api: {} })
    const dialog = await screen.findByRole('dialog', { name: 'Critical result' })
    expect(screen.getByTestId('critical-banner').getAttribute('role')).toBe('alert')
    await waitFor(() => expect(document.activeElement?.contains(within(dialog).getByTestId('critical-value'))).toBe(true))
    expect(within(dialog).getByTestId('critical-value').textContent).toBe('6.8 mmol/L')
    fireEvent.click(within(dialog).getByTestId('critical-acknowledge'))
    expect(await within(dialog).findByText('Choose how the patient was reached.')).toBeTruthy()
    expect(within(dialog).getByText('Say how you received the result.')).toBeTruthy()
    expect(within(dialog).getByText('Say what was done about this result.')).toBeTruthy()
    // By telephone, the read-back is required too.
    fireEvent.click(within(dialog).getByLabelText('By telephone (from the laboratory or a colleague)'))
    fireEvent.click(within(dialog).getByTestId('critical-acknowledge'))
    expect(await within(dialog).findByText(/must be read back/)).toBeTruthy()
    expect(await axeViolations(document.body)).toEqual([])
    // A click on the mask leaves it open; Escape closes it, sending nothing.
    fireEvent.click(document.querySelector('[class*="mask"]')!)
    expect(screen.getByRole('dialog', { name: 'Critical result' })).toBeTruthy()
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape' })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(view.sent).toEqual([])
    expect(screen.getByTestId('critical-banner')).toBeTruthy()
  })

  // The server's refusals: a field's message beside the field (422), any other said (409).
  it('shows the server\'s field messages beside the fields and says a refusal', async () => {
    let calls = 0
    await renderScreen(<CriticalAlertsBanner alerts={[alert(new Date())]} />, {
      me: user(['acknowledge critical results']),
      api: {
        'POST /results/alerts/1/acknowledge': () => {
          calls++
          if (calls === 1) throw new Refusal(422, { error: 'Please correct the highlighted fields.', code: 'error.invalid', errors: { action: ['Too long.'] } })
          throw new Refusal(409, { error: 'This alert was acknowledged already.', code: 'result.alert_acknowledged' })
        },
      },
    })
    const dialog = await screen.findByRole('dialog', { name: 'Critical result' })
    fireEvent.click(within(dialog).getByLabelText('In EMR'))
    fireEvent.click(within(dialog).getByLabelText('Could not be reached'))
    expect(within(dialog).getByText(/stays open/)).toBeTruthy()
    fireEvent.input(within(dialog).getByLabelText('What was done'), { target: { value: 'Called twice' } })
    fireEvent.click(within(dialog).getByTestId('critical-acknowledge'))
    expect(await within(dialog).findByText('Too long.')).toBeTruthy()
    expect(within(dialog).getByLabelText('What was done').getAttribute('aria-invalid')).toBe('true')
    fireEvent.click(within(dialog).getByTestId('critical-acknowledge'))
    expect(await screen.findByText('This alert was acknowledged already.')).toBeTruthy()
    expect(screen.getByRole('dialog', { name: 'Critical result' })).toBeTruthy()
  })
})
