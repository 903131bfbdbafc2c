// The visit page's keyboard shortcuts: Alt with a key (by its physical key, so that a
// keyboard layout or an input method does not change it), and "?" for the list.

export type ShortcutAction = 'help' | 'vitals' | 'findings' | 'diagnoses' | 'orders' | 'plan' | 'addDiagnosis' | 'addTest' | 'orderSet' | 'saveSet' | 'copyForward' | 'sign'

/** The shortcuts in the order the help lists them: the keys as shown, and the action. */
export const SHORTCUTS: { keys: string; code?: string; action: ShortcutAction }[] = [
  { keys: '?', action: 'help' },
  { keys: 'Alt+1', code: 'Digit1', action: 'vitals' },
  { keys: 'Alt+2', code: 'Digit2', action: 'findings' },
  { keys: 'Alt+3', code: 'Digit3', action: 'diagnoses' },
  { keys: 'Alt+4', code: 'Digit4', action: 'orders' },
  { keys: 'Alt+5', code: 'Digit5', action: 'plan' },
  { keys: 'Alt+D', code: 'KeyD', action: 'addDiagnosis' },
  { keys: 'Alt+T', code: 'KeyT', action: 'addTest' },
  { keys: 'Alt+O', code: 'KeyO', action: 'orderSet' },
  { keys: 'Alt+V', code: 'KeyV', action: 'saveSet' },
  { keys: 'Alt+C', code: 'KeyC', action: 'copyForward' },
  { keys: 'Alt+S', code: 'KeyS', action: 'sign' },
]

/** Whether focus is where "?" is typed as text. */
const typing = (el: Element | null) => !!el && (el instanceof HTMLTextAreaElement || (el instanceof HTMLInputElement && !['checkbox', 'radio', 'button'].includes(el.type)) || (el as HTMLElement).isContentEditable)

/** The action a key press asks for, if any. */
export function shortcutOf(e: Pick<KeyboardEvent, 'key' | 'code' | 'altKey' | 'ctrlKey' | 'metaKey' | 'shiftKey' | 'isComposing'>, focused: Element | null): ShortcutAction | null {
  if (e.isComposing || e.ctrlKey || e.metaKey) return null
  if (e.altKey && !e.shiftKey) return SHORTCUTS.find((s) => s.code === e.code)?.action ?? null
  if (!e.altKey && e.key === '?' && !typing(focused)) return 'help'
  return null
}
