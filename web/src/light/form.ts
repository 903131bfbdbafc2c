// A light form's state: its values, the message under each field, and the checks that give
// them: all at once on submit (the first field with a message then takes focus), and a field's
// own again as the user corrects it (a field with a message is checked at each change). A
// message can also be set from outside (the server's refusal, a check across fields).
import { useId, useRef, useState } from 'react'

export type Checks<T> = { [K in keyof T]?: (value: T[K], values: T) => string | undefined }
export type Errors<T> = { [K in keyof T]?: string }

export function useForm<T extends object>(initial: T, checks: Checks<T> = {}) {
  const [values, setValues] = useState<T>(initial)
  const [errors, setErrors] = useState<Errors<T>>({})
  // The element around the form's fields is marked data-form={scope}: the first invalid field
  // in it takes focus after a failed submit.
  const scope = useId()
  // A field that has focus already is left and taken again, so that a screen reader reads it
  // anew with its message (focus() on the focused element says nothing).
  const focusFirstInvalid = () =>
    requestAnimationFrame(() => {
      const field = document.querySelector<HTMLElement>(`[data-form="${scope}"] [aria-invalid="true"]`)
      if (!field) return
      if (document.activeElement === field) field.blur()
      field.focus()
    })

  // The values as last set, so that several fields set in one event each see the others.
  const latest = useRef(values)
  /** Sets some fields; those with a message are checked again (the user is correcting them). */
  const update = (part: Partial<T>) => {
    const next = { ...latest.current, ...part }
    latest.current = next
    setValues(next)
    const again = (Object.keys(part) as (keyof T)[]).filter((name) => errors[name] !== undefined)
    if (again.length) setErrors((e) => ({ ...e, ...Object.fromEntries(again.map((name) => [name, checks[name]?.(next[name], next)])) }))
  }
  const set = <K extends keyof T>(name: K, value: T[K]) => update({ [name]: value } as unknown as Partial<T>)
  /** Runs every check; true when none has a message. */
  const check = () => {
    const found: Errors<T> = {}
    for (const name of Object.keys(checks) as (keyof T)[]) {
      const message = checks[name]?.(latest.current[name], latest.current)
      if (message) found[name] = message
    }
    setErrors(found)
    if (Object.keys(found).length) focusFirstInvalid()
    return Object.keys(found).length === 0
  }
  /** Shows messages set from outside under their fields; returns those the form has no field for, for the caller to show. */
  const fail = (found: Errors<T>): string[] => {
    const names = Object.keys(found) as (keyof T)[]
    const placed = names.filter((name) => name in latest.current)
    setErrors((e) => ({ ...e, ...Object.fromEntries(placed.map((name) => [name, found[name]])) }))
    if (placed.length) focusFirstInvalid()
    return names.filter((name) => !(name in latest.current)).map((name) => found[name] ?? '')
  }
  const reset = (to: T = initial) => {
    latest.current = to
    setValues(to)
    setErrors({})
  }
  return { values, errors, set, update, check, fail, reset, scope }
}

export type Form<T extends object> = ReturnType<typeof useForm<T>>
