// How a form shows a refused save: the server's messages under the fields they name, or, when
// it named none, the message as a toast.
import type { FormInstance } from 'antd'
import type { MessageInstance } from 'antd/es/message/interface'
import { ApiError } from './api'

/** Shows e on form; anything that is not an ApiError is thrown on. */
export function showFormErrors<T>(form: FormInstance<T>, message: MessageInstance, e: unknown) {
  if (!(e instanceof ApiError)) throw e
  const fields = Object.entries(e.fields)
  form.setFields(fields.map(([name, errors]) => ({ name: name as never, errors })))
  if (!fields.length) message.error(e.message)
}

/**
 * The same for a light form (light/form.ts): the server's messages under the fields it names
 * (fail), or, when it named none, its message as a toast (the light toasts' error).
 */
export function showFieldErrors(e: unknown, fail: (errors: Record<string, string>) => string[] | void, toastError: (text: string) => void) {
  if (!(e instanceof ApiError)) throw e
  const fields = Object.entries(e.fields)
  if (!fields.length) return toastError(e.message)
  // Every message of a field under it; those about what the form has no field for (a closed
  // drawer, the line refunded) as a toast, never dropped.
  const left = fail(Object.fromEntries(fields.map(([name, errors]) => [name, errors.join(' ')]))) ?? []
  if (left.length) toastError(left.join(' '))
}
