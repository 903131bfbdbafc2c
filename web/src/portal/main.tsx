import '../lib/reactSemantics'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { PortalPage } from './PortalPage'

// The patient portal (/portal): its own entry, without the staff app's component library,
// router, query cache or string catalogue (ADR 5, ADR 44).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <PortalPage />
  </StrictMode>,
)
