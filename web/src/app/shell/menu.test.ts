import type { TFunction } from 'i18next'
import { filterRoutes } from '../routing/filter'
import { asyncRoutes, constantRoutes } from '../routing/table'
import { menuItems, openKeysFor } from './menu'

const t = ((k: string) => k) as unknown as TFunction
const all = [...constantRoutes, ...asyncRoutes]

type Node = { key: string; label: string; children?: Node[] }
const shape = (items: unknown[]): unknown[] =>
  (items as Node[]).map((i) => (i.children ? { [i.label]: shape(i.children) } : i.label))

describe('sidebar menu', () => {
  it('shows the admin every menu, without hidden routes', () => {
    expect(shape(menuItems(filterRoutes(all, ['admin'], []), t))).toEqual([
      'route.dashboard',
      { 'route.masterFile': ['route.patients'] },
      { 'route.appointments': ['route.appointments', 'route.patientMessages', 'route.immunisationDue'] },
      { 'route.results': ['route.resultsReview', 'route.overdueOrders', 'route.criticalReport'] },
      { 'route.fees': ['route.bills', 'route.ordersToCharge', 'route.cashUp', 'route.feeReports'] },
      { 'route.administrator': ['route.users', 'route.rolePermission', 'route.auditLog', 'route.medicines', 'route.medicineSafety', 'route.resultsCatalogue', 'route.services', 'route.clinic', 'route.patientMessageSettings', 'route.patientReleaseSettings', 'route.onlineBooking', 'route.immunisationSettings', 'route.backups', 'route.apiAccess', 'route.importPatients'] },
      { 'route.forms': ['route.blankPrescription', 'route.chartingAids', 'route.documentTemplates'] },
      'route.myProfile',
    ])
  })
  it('shows a receptionist no administration, forms or profile', () => {
    expect(shape(menuItems(filterRoutes(all, ['receptionist'], ['view patient', 'manage patient', 'view appointment', 'manage appointment']), t))).toEqual([
      'route.dashboard',
      { 'route.masterFile': ['route.patients'] },
      { 'route.appointments': ['route.appointments', 'route.immunisationDue'] },
    ])
    // With the desk's money permissions: the bills and her own cash-up, no financial reports.
    expect(shape(menuItems(filterRoutes(all, ['receptionist'], ['view patient', 'record charges', 'record payment', 'cash up own drawer']), t))).toEqual([
      'route.dashboard',
      { 'route.masterFile': ['route.patients'] },
      { 'route.fees': ['route.bills', 'route.ordersToCharge', 'route.cashUp'] },
    ])
  })
  it('shows a nurse the overdue orders but not the review queue', () => {
    expect(shape(menuItems(filterRoutes(all, ['nurse'], ['view patient', 'view appointment', 'record vitals', 'record results']), t))).toEqual([
      'route.dashboard',
      { 'route.masterFile': ['route.patients'] },
      'route.appointments',
      'route.overdueOrders',
    ])
  })
  it('opens the submenu that holds the current page', () => {
    const items = menuItems(filterRoutes(all, ['admin'], []), t)
    expect(openKeysFor(items, '/administrator/roles')).toEqual(['/administrator'])
    expect(openKeysFor(items, '/dashboard')).toEqual([])
  })
})
