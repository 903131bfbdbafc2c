// @vitest-environment jsdom
import { cleanup, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../test/render'
import { BackendClientsCard } from './BackendClientsCard'

afterEach(cleanup)

const open = (noPublicAddress: boolean) =>
  renderScreen(<BackendClientsCard tokenEndpoint="https://emr.example.org/fhir/R4/auth/token" noPublicAddress={noPublicAddress} />, {
    me: user(['manage user']),
    api: { 'GET /api-clients': { data: [] } },
  })

describe('BackendClientsCard', () => {
  it('warns that no client gets a token while the clinic has no public address, and links to where it is set', async () => {
    await open(true)
    const warning = await screen.findByTestId('no-public-address')
    expect(warning.textContent).toContain('backend clients cannot get access tokens')
    expect(screen.getByRole('link', { name: 'Set it under Administrator → Clinic' }).getAttribute('href')).toBe('/administrator/clinic')
  })

  it('shows the token endpoint under the public address, without the warning, once it is set', async () => {
    await open(false)
    await waitFor(() => expect(screen.getByText('https://emr.example.org/fhir/R4/auth/token')).toBeTruthy())
    expect(screen.queryByTestId('no-public-address')).toBeNull()
  })
})
