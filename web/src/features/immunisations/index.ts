// The immunisations feature's public parts, which the app shell places on other screens, loaded
// when first shown.
export const PatientImmunisations = () => import('./PatientImmunisations').then((m) => ({ default: m.PatientImmunisations }))
