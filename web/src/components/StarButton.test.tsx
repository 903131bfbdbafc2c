// @vitest-environment jsdom
import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { axeViolations } from '../test/axe'
import { renderScreen, user } from '../test/render'
import { StarButton } from './StarButton'

afterEach(cleanup)

describe('StarButton', () => {
  it('stars a code: named by what it does, pressed once starred, its name shown as a tooltip under the pointer', async () => {
    let starred = false
    const view = await renderScreen(<StarButton kind="code" refId="I10" name="I10" />, {
      me: user(['write diagnosis']),
      api: {
        'GET /favourites': () => ({ codes: starred ? [{ ref: 'I10', label: 'Essential (primary) hypertension', favourite: true, uses: 0 }] : [], tests: [], medicines: [] }),
        'PUT /favourites/code/I10': () => ((starred = true), null),
      },
    })
    const star = screen.getByRole('button', { name: 'Add I10 to favourites' })
    expect(star.getAttribute('aria-pressed')).toBe('false')
    expect(await axeViolations(view.container)).toEqual([])
    fireEvent.pointerEnter(star.parentElement!)
    expect(screen.getByText('Add I10 to favourites', { selector: '[role=tooltip] *' })).toBeTruthy()
    fireEvent.click(star)
    await waitFor(() => expect(view.sent).toEqual([{ method: 'PUT', path: '/favourites/code/I10', body: undefined }]))
    const unstar = await screen.findByRole('button', { name: 'Remove I10 from favourites' })
    expect(unstar.getAttribute('aria-pressed')).toBe('true')
  })

  it('is not there for a nurse, who keeps no favourites', async () => {
    const view = await renderScreen(<StarButton kind="test" refId="CBC" name="Complete blood count" />, { me: user(['record vitals']), api: {} })
    expect(screen.queryByRole('button')).toBeNull()
    expect(view.unanswered).toEqual([])
  })
})
