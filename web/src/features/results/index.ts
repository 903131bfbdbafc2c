// The results feature's public parts, which the app shell places on other screens.
export { CriticalAlerts } from './CriticalAlerts'
export { DashboardResults } from './DashboardResults'
export { PatientResults } from './PatientResults'
export { VisitResults } from './VisitResults'
