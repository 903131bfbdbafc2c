// The fees feature's public parts, which the app shell places on other screens, each loaded on
// its own when first shown.
export const VisitBill = () => import('./bill/BillPanel').then((m) => ({ default: m.VisitBill }))
export const PatientBills = () => import('./PatientBills').then((m) => ({ default: m.PatientBills }))
