// The results feature's public parts, which the app shell places on other screens, each loaded
// on its own when first shown: the banner above every page and the dashboard's figures must not
// bring the visit's and the chart's results tables with them.
export const CriticalAlerts = () => import('./CriticalAlerts').then((m) => ({ default: m.CriticalAlerts }))
export const DashboardResults = () => import('./DashboardResults').then((m) => ({ default: m.DashboardResults }))
export const PatientResults = () => import('./PatientResults').then((m) => ({ default: m.PatientResults }))
export const VisitResults = () => import('./VisitResults').then((m) => ({ default: m.VisitResults }))
