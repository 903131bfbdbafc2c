// The prescriptions feature's public parts, which the app shell places on other screens, each
// loaded on its own when first shown.
export const PatientPrescriptions = () => import('./components/PatientPrescriptions').then((m) => ({ default: m.PatientPrescriptions }))
export const PatientMedicines = () => import('./components/CurrentMedicines').then((m) => ({ default: m.PatientMedicines }))
export const VisitMedicines = () => import('./components/CurrentMedicines').then((m) => ({ default: m.VisitMedicines }))
export const VisitPrescriptions = () => import('./components/VisitPrescriptions').then((m) => ({ default: m.VisitPrescriptions }))
