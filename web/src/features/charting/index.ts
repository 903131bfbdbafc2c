// The charting feature's public parts, which the app shell places on other screens, loaded
// when first shown.
export const VisitOrderSet = () => import('./components/VisitOrderSet').then((m) => ({ default: m.VisitOrderSet }))
