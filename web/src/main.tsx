import './lib/reactSemantics'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { Root } from './app/Root'
import { watchIconLabels } from './app/iconLabels'
import { initI18n } from './lib/i18n'
import './styles.css'

await initI18n()
watchIconLabels()
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Root />
  </StrictMode>,
)
