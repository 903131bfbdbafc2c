// The prescriptions feature's public parts, which the app shell places on other screens.
export { PatientPrescriptions } from './components/PatientPrescriptions'
export { VisitPrescriptions } from './components/VisitPrescriptions'
