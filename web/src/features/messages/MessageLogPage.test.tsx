// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import type { LogEntry } from './api/messages'
import MessageLogPage from './MessageLogPage'

afterEach(cleanup)

const entry = (id: number, over: Partial<LogEntry> = {}): LogEntry => ({
  id, topic: 'appointment.booked', topic_id: 40, channel: 'email', patient_id: 9, to: 'a•••@example.org', status: 'sent', attempts: 1, last_error: '',
  created_at: '2026-11-29T08:00:00Z', due_at: '2026-11-29T08:00:00Z', sent_at: '2026-11-29T08:00:05Z', patient: 'An Nguyen', mrn: '2026-000009', ...over,
})

describe('MessageLogPage', () => {
  it('lists each message with the patient, the masked recipient, its status and the refusal; a failed one can be sent again', async () => {
    let resent = false
    const seen: Record<string, unknown>[] = []
    const view = await renderScreen(<MessageLogPage />, {
      me: user(['send messages']),
      api: {
        'GET /messages': ({ params }: { params: Record<string, unknown> }) => {
          seen.push(params)
          return {
            data: [
              entry(3, { topic: 'appointment.reminder', channel: 'sms', to: '•••••••4567', status: resent ? 'pending' : 'failed', attempts: 3, last_error: 'the SMS gateway refused the message (400)', sent_at: null }),
              entry(2),
            ],
            next: 0,
          }
        },
        'POST /messages/3/resend': () => {
          resent = true
          return undefined
        },
      },
    })
    const row = (await screen.findByText('the SMS gateway refused the message (400)')).closest('tr')!
    expect(within(row).getByText('Reminder')).toBeTruthy()
    expect(within(row).getByText('Failed')).toBeTruthy()
    expect(within(row).getByText(/•••••••4567/)).toBeTruthy()
    expect(screen.getAllByText('An Nguyen').length).toBe(2)
    fireEvent.click(within(row).getByRole('button', { name: 'Send again' }))
    await waitFor(() => expect(view.sent).toEqual([{ method: 'POST', path: '/messages/3/resend', body: undefined }]))
    await waitFor(() => expect(within(screen.getByText('•••••••4567', { exact: false }).closest('tr')!).getByText('Waiting')).toBeTruthy())
    expect(seen.length).toBeGreaterThanOrEqual(2)
  })

  it('filters by status and channel, and pages by the id the server gave', async () => {
    const seen: Record<string, unknown>[] = []
    await renderScreen(<MessageLogPage />, {
      me: user(['send messages']),
      api: {
        'GET /messages': ({ params }: { params: Record<string, unknown> }) => {
          seen.push(params)
          return params.before === 2 ? { data: [entry(1, { topic: 'appointment.cancelled' })], next: 0 } : { data: [entry(3), entry(2)], next: 2 }
        },
      },
    })
    await screen.findAllByText('An Nguyen')
    fireEvent.click(screen.getByRole('button', { name: 'Older' }))
    expect(await screen.findByText('Cancellation')).toBeTruthy()
    expect(seen.at(-1)).toMatchObject({ before: 2 })
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Status' }))
    fireEvent.click(await screen.findByTitle('Failed'))
    fireEvent.click(screen.getByRole('button', { name: 'Show' }))
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ status: 'failed' }))
    expect(seen.at(-1)?.before).toBeUndefined()
  })
})
