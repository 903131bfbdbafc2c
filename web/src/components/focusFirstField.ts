/**
 * For a Modal's afterOpenChange: once the dialog has opened, focus starts in its first field
 * that takes input (Ant Design focuses the dialog itself); closing returns focus to the button
 * that opened it (Ant Design's default).
 */
export function focusFirstField(open: boolean) {
  if (!open) return
  const bodies = [...document.querySelectorAll<HTMLElement>('.ant-modal-body')].filter((b) => b.offsetParent !== null)
  bodies
    .at(-1)
    ?.querySelector<HTMLElement>('input:not([disabled]):not([type=hidden]), textarea:not([disabled])')
    ?.focus()
}
