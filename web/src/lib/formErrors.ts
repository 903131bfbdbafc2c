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
