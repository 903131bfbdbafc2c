// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { renderScreen, user } from '../../../test/render'
import type { LabTest, VisitContent } from '../api/types'
import { createDraft } from './draft'
import { OrdersCard } from './OrdersCard'
import { VisitDraftContext } from './VisitFormProvider'

afterEach(cleanup)

const tests: LabTest[] = [
  { code: 'CMP', kind: 'lab', label: 'Comprehensive metabolic panel', includes: ['BMP'] },
  { code: 'BMP', kind: 'lab', label: 'Basic metabolic panel', includes: [] },
  { code: 'CBC', kind: 'lab', label: 'Complete blood count', includes: [] },
]

const card = (orders: string[]) => (
  <VisitDraftContext.Provider value={createDraft({ orders: orders.map((code) => ({ code, note: '' })) } as VisitContent)}>
    <OrdersCard disabled={false} tests={tests} ordered={[]} onChange={() => undefined} />
  </VisitDraftContext.Provider>
)

// Issue 55 (the cashier's review): a panel ordered with a test it already reports is told to the
// doctor where it is typed, not only to the desk on the bill.
describe('OrdersCard', () => {
  it('tells the doctor that a panel already reports a test ordered beside it', async () => {
    await renderScreen(card(['CMP', 'CBC', 'BMP']), { me: user(['write diagnosis']), api: { 'GET /favourites/picks': { tests: [], medicines: [], codes: [] } } })
    const warning = await screen.findByTestId('order-overlap')
    expect(warning.textContent).toContain('Basic metabolic panel is part of Comprehensive metabolic panel')
    expect(screen.getAllByTestId('order-overlap')).toHaveLength(1)
  })

  it('says nothing of tests that do not overlap', async () => {
    await renderScreen(card(['CMP', 'CBC']), { me: user(['write diagnosis']), api: { 'GET /favourites/picks': { tests: [], medicines: [], codes: [] } } })
    await screen.findByDisplayValue('Comprehensive metabolic panel')
    expect(screen.queryByTestId('order-overlap')).toBeNull()
  })
})
