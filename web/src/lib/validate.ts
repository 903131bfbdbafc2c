// Validation helpers of spec §5. The generic schema validator is async-validator (the one
// Ant Design's forms use), with its standard messages such as '%s is required'.
import Schema, { type Rules, type ValidateError } from '@rc-component/async-validator'

/** A string is an external link if it starts with http:, https:, mailto: or tel:. */
export function isExternal(path: string): boolean {
  return /^(https?:|mailto:|tel:)/.test(path)
}

const EMAIL =
  /^(([^<>()[\]\\.,;:\s@"]+(\.[^<>()[\]\\.,;:\s@"]+)*)|(".+"))@((\[[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\.[0-9]{1,3}\])|(([a-zA-Z\-0-9]+\.)+[a-zA-Z]{2,}))$/

/** The spec's e-mail check: local part, @, a dotted domain ending in two or more letters or a bracketed IPv4 address; under 255 characters. */
export function validEmail(email: string): boolean {
  return email.length < 255 && EMAIL.test(email)
}

/** Validates values against an async-validator schema; resolves to the errors (empty when valid). */
export async function validate(rules: Rules, values: Record<string, unknown>): Promise<ValidateError[]> {
  try {
    await new Schema(rules).validate(values, { first: false })
    return []
  } catch (e) {
    const errors = (e as { errors?: ValidateError[] }).errors
    if (!errors) throw e
    return errors
  }
}
