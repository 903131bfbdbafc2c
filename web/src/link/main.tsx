import '../lib/reactSemantics'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { LinkPage } from './LinkPage'

// The page a patient's message links to (/m/TOKEN): its own entry, without the staff app's
// component library, router or string catalogue (ADR 5, ADR 42).
const token = decodeURIComponent(window.location.pathname.replace(/^\/m\//, '').split('/')[0] ?? '')
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <LinkPage token={token} />
  </StrictMode>,
)
