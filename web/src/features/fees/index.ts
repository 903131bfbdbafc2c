// The fees feature's public parts, which the app shell places on other screens.
export { VisitBill } from './bill/BillPanel'
export { PatientBills } from './BillsPage'
