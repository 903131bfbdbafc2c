// The results feature's public parts, which the app shell places on other screens. Most load on
// their own when first shown: the dashboard's figures must not bring the visit's and the chart's
// results tables with them. The critical-results watcher above every page is small and comes
// with the frame, so that a waiting critical result is announced as soon as the server tells of
// it, without a download first; the figures' placeholder (built on the component library, which
// the light frame does not carry) loads with the dashboard.
export { CriticalAlerts } from './CriticalAlerts'
export const DashboardResultsLoading = () => import('./DashboardResultsLoading').then((m) => ({ default: m.DashboardResultsLoading }))
export const DashboardResults = () => import('./DashboardResults').then((m) => ({ default: m.DashboardResults }))
export const PatientResults = () => import('./PatientResults').then((m) => ({ default: m.PatientResults }))
export const VisitResults = () => import('./VisitResults').then((m) => ({ default: m.VisitResults }))
