// The number note (light/NumberInput.tsx) under a field of a library's form, read from that
// form: for the screens still on the library (the prescription line, the price list, the
// results' record). The light forms put NumberNote under their fields themselves.
import { Form } from 'antd'
import { NumberNote } from '../light/NumberInput'

/** NumberNote for the text of a field of the form around it. */
export function FieldNumberNote({ name, unit, amountUnits, censored }: { name: (string | number)[] | string; unit?: string; amountUnits?: number; censored?: boolean }) {
  const form = Form.useFormInstance()
  const text = Form.useWatch(name, form) as string | undefined
  return <NumberNote text={text} unit={unit} amountUnits={amountUnits} censored={censored} />
}
