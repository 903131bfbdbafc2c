import { useEffect, useRef } from 'react'
import { shortcutOf, type ShortcutAction } from './shortcuts'
import { useVisitForm } from './VisitFormProvider'

/** The visit's keyboard: Alt shortcuts and "?" (shortcuts.ts); none while a dialog is open. */
export function useVisitShortcuts() {
  const { ro, mode, canDiagnose, setDialog, saving } = useVisitForm()
  const run = useRef<(action: ShortcutAction) => void>(() => {})
  const runAction = (action: ShortcutAction) => {
    const focusIn = (id: string) => document.getElementById(id)?.querySelector<HTMLElement>('input:not([type=hidden]), textarea, button')?.focus()
    const add = (what: string, section: string) => {
      document.querySelector<HTMLElement>(`[data-action="${what}"]`)?.click()
      setTimeout(() => [...document.querySelectorAll<HTMLElement>(`#${section} .ant-select input, #${section} input[role=combobox]`)].pop()?.focus())
    }
    switch (action) {
      case 'help':
        return setDialog('help')
      case 'vitals':
      case 'findings':
      case 'diagnoses':
      case 'orders':
      case 'plan':
        return focusIn(`visit-${action}`)
      case 'addDiagnosis':
        return !ro && add('add-diagnosis', 'visit-diagnoses')
      case 'addTest':
        return !ro && add('add-test', 'visit-orders')
      case 'orderSet':
        return mode === 'draft' && canDiagnose && setDialog('apply')
      case 'saveSet':
        return canDiagnose && setDialog('save')
      case 'copyForward':
        return mode === 'draft' && canDiagnose && setDialog('copy')
      case 'sign':
        return mode === 'draft' && saving.sign()
    }
  }
  useEffect(() => {
    run.current = runAction
  })
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (document.querySelector('.ant-modal-wrap:not([style*="display: none"])')) return
      // A light dialog (the signature's confirmation) is drawn only while open.
      if ([...document.querySelectorAll('[aria-modal="true"]')].some((d) => !d.closest('.ant-modal-wrap'))) return
      const action = shortcutOf(e, document.activeElement)
      if (!action) return
      e.preventDefault()
      run.current(action)
    }
    document.addEventListener('keydown', onKey)
    return () => document.removeEventListener('keydown', onKey)
  }, [])
}
