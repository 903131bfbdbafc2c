// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { renderScreen, user } from '../../test/render'
import { alert } from './alertFixture'
import type { CriticalAlert } from './api/types'
import CriticalAlertsBanner from './CriticalAlertsBanner'

afterEach(() => {
  cleanup()
  vi.useRealTimers()
})

describe('CriticalAlertsBanner', () => {
  it('ticks the waiting time on its own, without asking the server again', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] })
    vi.setSystemTime(new Date('2026-11-28T12:28:00Z'))
    const view = await renderScreen(<CriticalAlertsBanner alerts={[alert(new Date('2026-11-28T12:26:47Z'))]} />, { me: user(['acknowledge critical results']), api: {} })
    expect(screen.getByTestId('critical-waiting').textContent).toBe('waiting 1 minute')
    await act(async () => {
      vi.advanceTimersByTime(2 * 60_000)
    })
    expect(screen.getByTestId('critical-waiting').textContent).toBe('waiting 3 minutes')
    expect(view.unanswered).toEqual([])
  })

  // Issue 54: a critical result withdrawn is said to be withdrawn, with why, to those it
  // reached; no acknowledgement dialog opens. Issue 55 (M1, C3): the banner says whether and by
  // whom the alert had been acknowledged and what was done then, and records the withdrawal's
  // follow-up.
  it('says a critical result was withdrawn, why, and who had acted on it, and records the follow-up', async () => {
    const withdrawn = {
      ...alert(new Date('2026-11-28T12:26:47Z')),
      open: true,
      acknowledged_at: '2026-11-28T12:30:00Z',
      acknowledged_by_name: 'Dr Lead',
      action: 'Sent to ED, calcium gluconate',
      withdrawn_at: '2026-11-28T12:40:00Z',
      withdrawn_by_name: 'Nurse Lan',
      withdrawn_reason: 'haemolysed',
      withdrawn_category: 'specimen',
    } as CriticalAlert
    const view = await renderScreen(<CriticalAlertsBanner alerts={[withdrawn]} />, {
      me: user(['acknowledge critical results']),
      api: { 'POST /results/alerts/1/acknowledge': {} },
    })
    const banner = screen.getByTestId('withdrawn-banner')
    expect(banner.textContent).toContain('Critical result withdrawn: Potassium: 6.8 mmol/L')
    expect(banner.textContent).toContain('haemolysed')
    // Issue 55, J1: the advice is conditional, and the value that now stands is shown (none here).
    expect(banner.textContent).toContain('review any treatment given for the withdrawn value')
    expect(banner.textContent).not.toContain('undo any treatment')
    expect(banner.textContent).toContain('No value stands now')
    expect(screen.getByTestId('withdrawn-acknowledged').textContent).toMatch(/acknowledged by Dr Lead .*: Sent to ED, calcium gluconate/)
    expect(screen.queryByTestId('critical-banner')).toBeNull()
    expect(screen.queryByTestId('critical-acknowledge')).toBeNull()
    fireEvent.click(screen.getByTestId('followup-1'))
    fireEvent.click(await screen.findByLabelText('Treatment given for it stopped or changed'))
    fireEvent.click(screen.getByTestId('followup-save'))
    await waitFor(() =>
      expect(view.sent).toEqual([{ method: 'POST', path: '/results/alerts/1/acknowledge', body: { followup: 'treatment_changed', note: '' } }]),
    )
  })

  // Issue 55 (m1): an alert withdrawn while its acknowledgement is being written closes its
  // dialog saying so, and where to record what was done; it is not silently gone.
  it('says the alert was withdrawn when its acknowledgement dialog closes for that', async () => {
    const open = alert(new Date())
    function Harness() {
      const [alerts, setAlerts] = useState([open])
      return (
        <>
          <button onClick={() => setAlerts([{ ...open, withdrawn_at: new Date().toISOString(), withdrawn_by_name: 'Nurse Lan', withdrawn_reason: 'haemolysed' } as CriticalAlert])}>
            withdraw
          </button>
          <CriticalAlertsBanner alerts={alerts} />
        </>
      )
    }
    await renderScreen(<Harness />, { me: user(['acknowledge critical results']), api: {} })
    expect(await screen.findByTestId('critical-acknowledge')).toBeTruthy()
    fireEvent.click(screen.getByText('withdraw'))
    expect(await screen.findByText(/was withdrawn while you were writing/)).toBeTruthy()
    expect(screen.getByTestId('withdrawn-banner')).toBeTruthy()
  })

  // Issue 55, J1: a withdrawal shows the value that now stands, and says when it is critical itself.
  it('shows the value that now stands beside the withdrawn one', async () => {
    const base = alert(new Date('2026-11-28T12:26:47Z'))
    const withdrawn = {
      ...base,
      withdrawn_at: '2026-11-28T12:40:00Z',
      withdrawn_by_name: 'Nurse Lan',
      withdrawn_reason: 'wrong line typed',
      withdrawn_category: 'corrected',
      standing: { ...base.result, id: 9, value: '2.1', flag: 'LL' },
    } as CriticalAlert
    await renderScreen(<CriticalAlertsBanner alerts={[withdrawn]} />, { me: user(['acknowledge critical results']), api: {} })
    expect(screen.getByTestId('withdrawn-standing').textContent).toContain('Now stands: Potassium: 2.1 mmol/L — critical too, with an alert of its own')
  })

  // Issue 55, K2: a correction carries the open alert to another value while its dialog is open:
  // the dialog says so and sends nothing until the new value is read; then it names that value.
  it('warns when the value changes under an open acknowledgement and names the value read', async () => {
    const open = { ...alert(new Date()), result: { ...alert(new Date()).result, id: 7 } } as CriticalAlert
    function Harness() {
      const [alerts, setAlerts] = useState([open])
      return (
        <>
          <button onClick={() => setAlerts([{ ...open, result: { ...open.result, id: 8, value: '2.1', flag: 'LL' } } as CriticalAlert])}>correct</button>
          <CriticalAlertsBanner alerts={alerts} />
        </>
      )
    }
    const view = await renderScreen(<Harness />, { me: user(['acknowledge critical results']), api: { 'POST /results/alerts/1/acknowledge': {} } })
    expect(await screen.findByTestId('critical-acknowledge')).toBeTruthy()
    fireEvent.click(screen.getByText('correct'))
    const warning = await screen.findByTestId('critical-value-changed')
    expect(warning.textContent).toContain('it was 6.8 mmol/L, it is now 2.1 mmol/L')
    expect((screen.getByTestId('critical-acknowledge') as HTMLButtonElement).disabled).toBe(true)
    fireEvent.click(screen.getByTestId('critical-value-read'))
    expect(view.sent).toEqual([])
    fireEvent.click(screen.getByLabelText('In EMR'))
    fireEvent.click(screen.getByLabelText('By phone'))
    fireEvent.input(screen.getByLabelText('What was done'), { target: { value: 'Oral potassium' } })
    fireEvent.click(screen.getByTestId('critical-acknowledge'))
    await waitFor(() =>
      expect(view.sent).toEqual([
        {
          method: 'POST',
          path: '/results/alerts/1/acknowledge',
          body: { result_id: 8, contact: 'phone', action: 'Oral potassium', received_by: 'system', read_back: '' },
        },
      ]),
    )
  })
})
