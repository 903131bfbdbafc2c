// Every screen of the route table (src/app/routing/table.tsx), with how the accessibility
// test fills its parameters. A unit test (src/app/routing/screens.test.ts) fails when a route
// is added without being listed here, so the axe test never checks a sample.

export interface Fixture {
  patient: { id: number; mrn: string }
  appointment: number
  prescription: number
  /** A final bill of the appointment. */
  bill: number
  user: number
  /** A laboratory request issued from the appointment. */
  document: number
  /** A document template (the English medical certificate). */
  template: number
  /** A drawer's shift (the administrator's, with a float). */
  drawer: number
  /** The appointment's blood count, with a final result. */
  order: number
}

export const SCREENS: { route: string; path: (f: Fixture) => string }[] = [
  { route: '/dashboard', path: () => '/dashboard' },
  { route: '/masterfile/patients', path: () => '/masterfile/patients' },
  { route: '/masterfile/patient_form/:id', path: () => '/masterfile/patient_form/new' },
  { route: '/masterfile/profile/:id/:pid', path: (f) => `/masterfile/profile/${f.patient.id}/${f.patient.mrn}` },
  { route: '/appointments/appointments', path: () => '/appointments/appointments' },
  { route: '/appointments/form/:id', path: (f) => `/appointments/form/${f.appointment}` },
  { route: '/appointments/messages', path: () => '/appointments/messages' },
  { route: '/appointments/immunisations-due', path: () => '/appointments/immunisations-due' },
  { route: '/results/review', path: () => '/results/review' },
  { route: '/results/overdue', path: () => '/results/overdue' },
  { route: '/results/critical', path: () => '/results/critical' },
  { route: '/results/orders/:id', path: (f) => `/results/orders/${f.order}` },
  { route: '/fees/bills', path: () => '/fees/bills' },
  { route: '/fees/cash-up', path: () => '/fees/cash-up' },
  { route: '/fees/orders-to-charge', path: () => '/fees/orders-to-charge' },
  { route: '/fees/reports', path: () => '/fees/reports' },
  { route: '/fees/drawers/:id/print', path: (f) => `/fees/drawers/${f.drawer}/print` },
  { route: '/bills/:id', path: (f) => `/bills/${f.bill}` },
  { route: '/bills/:id/print/:doc', path: (f) => `/bills/${f.bill}/print/statement` },
  { route: '/profile/edit', path: () => '/profile/edit' },
  { route: '/prescriptions/print/:id', path: (f) => `/prescriptions/print/${f.prescription}` },
  { route: '/permission/page', path: () => '/permission/page' },
  { route: '/permission/directive', path: () => '/permission/directive' },
  { route: '/smart/authorize', path: () => '/smart/authorize' },
  { route: '/administrator/users', path: () => '/administrator/users' },
  { route: '/administrator/users/edit/:id', path: (f) => `/administrator/users/edit/${f.user}` },
  { route: '/administrator/roles', path: () => '/administrator/roles' },
  { route: '/administrator/audit', path: () => '/administrator/audit' },
  { route: '/administrator/medicines', path: () => '/administrator/medicines' },
  { route: '/administrator/medicine-safety', path: () => '/administrator/medicine-safety' },
  { route: '/administrator/results-catalogue', path: () => '/administrator/results-catalogue' },
  { route: '/administrator/services', path: () => '/administrator/services' },
  { route: '/administrator/patient-messages', path: () => '/administrator/patient-messages' },
  { route: '/administrator/patient-release', path: () => '/administrator/patient-release' },
  { route: '/administrator/online-booking', path: () => '/administrator/online-booking' },
  { route: '/administrator/immunisations', path: () => '/administrator/immunisations' },
  { route: '/administrator/clinic', path: () => '/administrator/clinic' },
  { route: '/administrator/backups', path: () => '/administrator/backups' },
  { route: '/administrator/api-access', path: () => '/administrator/api-access' },
  { route: '/administrator/import-patients', path: () => '/administrator/import-patients' },
  { route: '/forms/blankPrescription', path: () => '/forms/blankPrescription' },
  { route: '/forms/charting', path: () => '/forms/charting' },
  { route: '/forms/templates', path: () => '/forms/templates' },
  { route: '/forms/templates/:id', path: (f) => `/forms/templates/${f.template}` },
  { route: '/documents/:id/print', path: (f) => `/documents/${f.document}/print` },
  { route: '/user-profile/user-profile', path: () => '/user-profile/user-profile' },
  { route: '/*', path: () => '/no/such/page' },
]
