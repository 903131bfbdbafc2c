// The release feature's public parts, which the app shell places on other screens, loaded
// when first shown.
export const PatientRelease = () => import('./PatientRelease').then((m) => ({ default: m.PatientRelease }))
