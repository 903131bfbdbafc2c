/**
 * For a Modal's afterOpenChange: once the dialog has opened, focus starts in its first field
 * that takes input (Ant Design focuses the dialog itself) — unless the user is already in a
 * field of it (a quick hand clicks or tabs in before the opening animation ends: their focus,
 * and what they type, stay where they are). Closing returns focus to the button that opened
 * it (Ant Design's default).
 */
export function focusFirstField(open: boolean) {
  if (!open) return
  const body = [...document.querySelectorAll<HTMLElement>('.ant-modal-body')].filter((b) => b.offsetParent !== null).at(-1)
  const active = document.activeElement
  if (!body || (active && body.contains(active) && active.matches('input, textarea, [role=combobox]'))) return
  body.querySelector<HTMLElement>('input:not([disabled]):not([type=hidden]), textarea:not([disabled])')?.focus()
}
