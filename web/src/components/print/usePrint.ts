import { App } from 'antd'
import { useState } from 'react'
import { ApiError } from '../../lib/api'

/**
 * "Record the print, then print": record() tells the server (which audits the print, or
 * issues the paper) and the browser's print dialog opens only once it has answered, so a
 * print the server did not hear of does not happen. A refusal is shown: by the app's error
 * toast, or here when the request asked to be silent.
 */
export function usePrint(record?: () => Promise<unknown>) {
  const { message } = App.useApp()
  const [busy, setBusy] = useState(false)
  const print = async () => {
    setBusy(true)
    try {
      if (record) await record()
      // Let the recorded state (a number, a signature, "printed") render before the dialog takes the page.
      setTimeout(() => window.print(), 50)
    } catch (e) {
      if (e instanceof ApiError && e.silent) message.error(e.display)
    } finally {
      setBusy(false)
    }
  }
  return { print, busy }
}
