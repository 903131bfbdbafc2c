import '../lib/reactSemantics'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { BookPage } from './BookPage'

// The public online booking page (/book): its own entry, without the staff app's component
// library, router, query cache or string catalogue (ADR 5, ADR 43).
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <BookPage />
  </StrictMode>,
)
