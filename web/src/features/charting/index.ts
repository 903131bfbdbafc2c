// The charting feature's public parts, which the app shell places on other screens.
export { VisitOrderSet } from './components/VisitOrderSet'
