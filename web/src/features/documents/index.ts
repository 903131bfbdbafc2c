// The documents feature's public parts, which the app shell places on other screens, loaded
// when first shown.
export const DocumentsCard = () => import('./components/DocumentList').then((m) => ({ default: m.DocumentsCard }))
