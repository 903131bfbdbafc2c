// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../../test/axe'
import { Refusal, renderScreen, user } from '../../test/render'
import type { VaccineCatalogue } from './api/getVaccineCatalogue'
import type { ImmunisationSettings } from './api/immunisationSettings'
import ImmunisationSettingsPage from './ImmunisationSettingsPage'

afterEach(cleanup)

const WHO = 'WHO recommended routine immunisation'
const VN = 'Viet Nam: expanded programme on immunisation (TCMR)'
const RU = 'Russia: national calendar of preventive vaccinations'

const catalogue: VaccineCatalogue = {
  schedules: [
    { key: 'vn_epi', name: VN, country: 'vn', source: 'Bộ Y tế, Thông tư 10/2024/TT-BYT' },
    { key: 'ru_nc', name: RU, country: 'ru', source: 'Приказ Минздрава России № 1122н' },
    { key: 'who', name: WHO, country: '', source: `WHO recommendations for routine immunization – summary tables (2025); ${'the notes of the schedule, '.repeat(6)}ADR 49` },
  ],
  vaccines: [
    { key: 'bcg', cvx: '19', name: 'BCG vaccine', brands: { vn: ['BCG (IVAC)'] } },
    { key: 'hepb_paed', cvx: '08', name: 'Hepatitis B vaccine (paediatric)' },
    { key: 'bubo_kok', cvx: '', name: 'Bubo-Kok (DTP-HepB)' },
  ],
}

const stored: ImmunisationSettings = { schedules: ['who'], stocked: ['bcg'], reminders: { on: true, days_before: 7, channels: ['sms'] }, weight_max_age_days: 30, version: 3 }

const api = (extra: Record<string, unknown> = {}) => ({ 'GET /immunisation/catalogue': catalogue, 'GET /immunisation/settings': stored, ...extra })
const me = user(['manage settings'])

/** The schedules' names as the list shows them, top to bottom. */
const order = () => screen.getAllByRole('listitem').map((li) => catalogue.schedules.find((s) => li.textContent?.includes(s.name))?.key)

describe('ImmunisationSettingsPage', () => {
  it('shows the chosen schedules first in their order, with country and source, and the rest of the settings', async () => {
    await renderScreen(<ImmunisationSettingsPage />, { me, api: api() })
    const who = await screen.findByRole('checkbox', { name: `${WHO} (number 1)` })
    expect((who as HTMLInputElement).checked).toBe(true)
    expect((screen.getByRole('checkbox', { name: VN }) as HTMLInputElement).checked).toBe(false)
    expect(order()).toEqual(['who', 'vn_epi', 'ru_nc'])
    expect(within(screen.getByTestId('schedule-vn_epi')).getByText('Bộ Y tế, Thông tư 10/2024/TT-BYT')).toBeTruthy()
    expect(within(screen.getByTestId('schedule-vn_epi')).getByText('Vietnam')).toBeTruthy()
    expect(within(screen.getByTestId('schedule-who')).getByText('International')).toBeTruthy()
    // A long source folds to two lines, and opens by its button.
    const more = within(screen.getByTestId('schedule-who')).getByRole('button', { name: 'Show the whole source' })
    expect(more.getAttribute('aria-expanded')).toBe('false')
    fireEvent.click(more)
    expect(within(screen.getByTestId('schedule-who')).getByRole('button', { name: 'Show less' }).getAttribute('aria-expanded')).toBe('true')
    expect(within(screen.getByTestId('schedule-vn_epi')).queryByRole('button', { name: 'Show the whole source' })).toBeNull()
    expect(screen.getByRole('group', { name: 'Schedules the clinic follows, in order' }).getAttribute('aria-describedby')).toContain('immunisation-order-rule')
    expect(screen.getByText(/the first schedule that has it decides the doses/)).toBeTruthy()
    expect(screen.getByText('BCG vaccine · CVX 19')).toBeTruthy()
    expect((screen.getByRole('spinbutton', { name: 'Days before the due date' }) as HTMLInputElement).value).toBe('7')
    expect((screen.getByRole('checkbox', { name: 'SMS' }) as HTMLInputElement).checked).toBe(true)
    expect((screen.getByRole('spinbutton', { name: "How long a child's weight stays current" }) as HTMLInputElement).value).toBe('30')
  })

  it('has no accessibility violation', async () => {
    const view = await renderScreen(<ImmunisationSettingsPage />, { me, api: api() })
    await screen.findByText(VN)
    expect(await axeViolations(view.container)).toEqual([])
  })

  it('orders the schedules by the move buttons, keeping the focus on the moved one, and saves the whole settings at the version read', async () => {
    const view = await renderScreen(<ImmunisationSettingsPage />, {
      me,
      api: api({ 'PUT /immunisation/settings': ({ body }: { body: unknown }) => ({ ...(body as object), version: 4 }) }),
    })
    fireEvent.click(await screen.findByRole('checkbox', { name: VN }))
    expect(order()).toEqual(['who', 'vn_epi', 'ru_nc'])
    expect(screen.getByRole('button', { name: `Move ${VN} down` }).hasAttribute('disabled')).toBe(true)
    fireEvent.click(screen.getByRole('button', { name: `Move ${VN} up` }))
    expect(order()).toEqual(['vn_epi', 'who', 'ru_nc'])
    // At the top its up button is off: the focus is on its down button.
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('button', { name: `Move ${VN} down` })))
    expect(screen.getByText(`${VN} is now number 1.`)).toBeTruthy()
    fireEvent.input(screen.getByRole('spinbutton', { name: "How long a child's weight stays current" }), { target: { value: '45' } })
    fireEvent.click(screen.getByRole('checkbox', { name: 'E-mail' }))
    // A stocked vaccine found by its CVX code.
    const stock = screen.getByRole('combobox', { name: 'Vaccines the clinic stocks' })
    fireEvent.mouseDown(stock)
    fireEvent.input(stock, { target: { value: 'cvx 08' } })
    fireEvent.click(await screen.findByText('Hepatitis B vaccine (paediatric) · CVX 08'))
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() => expect(view.sent.length).toBe(1))
    expect(view.sent[0]).toMatchObject({ method: 'PUT', path: '/immunisation/settings' })
    expect(view.sent[0].body).toEqual({
      schedules: ['vn_epi', 'who'],
      stocked: ['bcg', 'hepb_paed'],
      reminders: { on: true, days_before: 7, channels: ['sms', 'email'] },
      weight_max_age_days: 45,
      version: 3,
    })
    expect(await screen.findByText('Immunisation settings saved.')).toBeTruthy()
  })

  it('says so when someone saved since, and shows the settings stored now', async () => {
    let reads = 0
    const conflict = 'Someone else changed this record after you opened it. Reload it and apply your change again.'
    const view = await renderScreen(<ImmunisationSettingsPage />, {
      me,
      api: api({
        'GET /immunisation/settings': () => (++reads === 1 ? stored : { ...stored, schedules: ['ru_nc', 'who'], version: 5 }),
        'PUT /immunisation/settings': () => {
          throw new Refusal(409, { error: conflict, code: 'error.conflict' })
        },
      }),
    })
    fireEvent.click(await screen.findByRole('checkbox', { name: VN }))
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect((await screen.findByTestId('immunisation-settings-conflict')).textContent).toContain(conflict)
    await waitFor(() => expect(order()).toEqual(['ru_nc', 'who', 'vn_epi']))
    expect(reads).toBe(2)
    expect(view.sent.length).toBe(1)
  })

  it("shows the server's refusal under the field it names, and asks for one schedule at least before sending", async () => {
    const view = await renderScreen(<ImmunisationSettingsPage />, {
      me,
      api: api({
        'PUT /immunisation/settings': () => {
          throw new Refusal(422, { error: 'Check the marked fields.', code: 'validation.failed', errors: { 'reminders.days_before': ['Remind from 0 to 60 days before the due date.'] } })
        },
      }),
    })
    fireEvent.input(await screen.findByRole('spinbutton', { name: 'Days before the due date' }), { target: { value: '90' } })
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Remind from 0 to 60 days before the due date.')).toBeTruthy()
    expect(view.sent[0].body).toMatchObject({ reminders: { days_before: 90 } })

    fireEvent.click(screen.getByRole('checkbox', { name: `${WHO} (number 1)` }))
    fireEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(await screen.findByText('Choose at least one schedule.')).toBeTruthy()
    expect(view.sent.length).toBe(1)
  })
})
