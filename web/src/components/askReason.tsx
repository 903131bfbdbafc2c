import { App, Input, Typography } from 'antd'

interface Ask {
  title: string
  label: string
  /** What to know before giving the reason, above it. */
  help?: string
  okText: string
  cancelText: string
  danger?: boolean
  /** Runs with the trimmed reason; its errors are the caller's to show (the dialog then closes). */
  onOk(reason: string): Promise<unknown>
}

/**
 * A dialog that asks why (archiving, amending): focus starts in the reason, and the action
 * stays disabled until a reason is typed, so there is no error to raise for an empty one.
 */
export function useAskReason() {
  const { modal } = App.useApp()
  return ({ title, label, help, okText, cancelText, danger, onOk }: Ask) => {
    let reason = ''
    const dialog = modal.confirm({
      title,
      okText,
      cancelText,
      okButtonProps: { disabled: true, danger },
      autoFocusButton: null,
      content: (
        <>
          {help && <Typography.Paragraph type="secondary">{help}</Typography.Paragraph>}
          <Input.TextArea
            aria-label={label}
            placeholder={label}
            maxLength={500}
            autoFocus
            onChange={(e) => {
              reason = e.target.value
              dialog.update({ okButtonProps: { disabled: !reason.trim(), danger } })
            }}
          />
        </>
      ),
      onOk: async () => {
        try {
          await onOk(reason.trim())
        } catch {
          // The API client has already said what went wrong.
        }
      },
    })
  }
}
