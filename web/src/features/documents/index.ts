// The documents feature's public parts, which the app shell places on other screens.
export { DocumentsCard } from './components/DocumentList'
